//! Who owns which open panel id, as plain data with its rules: a panel id
//! belongs to the extension that opened it until it or the user closes it
//! or the extension goes away; nobody else may claim, render to or close
//! it. The routing around it (logging, UI events) is in `panels.rs`.

use std::collections::{HashMap, HashSet};

use crate::records::ext_id::ExtId;

/// Open panel id → its owner.
#[derive(Debug, Default)]
pub(crate) struct PanelTable {
    owners: HashMap<String, ExtId>,
    /// The open panels that show an HTML page: only they exchange
    /// `panel_message`.
    html: HashSet<String>,
}

impl PanelTable {
    /// The owner of `panel_id` when it is open and not `ext`'s.
    pub fn foreign_owner(&self, ext: ExtId, panel_id: &str) -> Option<ExtId> {
        self.owners.get(panel_id).copied().filter(|o| *o != ext)
    }

    /// Makes `ext` the owner of `panel_id` unless another extension owns it;
    /// that owner is the error. Opening one's own panel again is fine.
    pub fn claim(&mut self, ext: ExtId, panel_id: &str) -> Result<(), ExtId> {
        if let Some(owner) = self.foreign_owner(ext, panel_id) {
            return Err(owner);
        }
        self.owners.insert(panel_id.to_owned(), ext);
        Ok(())
    }

    /// Records whether open panel `panel_id` shows an HTML page (a reopen
    /// may switch it between lines and HTML).
    pub fn set_html(&mut self, panel_id: &str, html: bool) {
        if html && self.owners.contains_key(panel_id) {
            self.html.insert(panel_id.to_owned());
        } else {
            self.html.remove(panel_id);
        }
    }

    /// Whether open panel `panel_id` shows an HTML page.
    pub fn is_html(&self, panel_id: &str) -> bool {
        self.html.contains(panel_id)
    }

    /// Whether `ext` owns open panel `panel_id`.
    pub fn owns(&self, ext: ExtId, panel_id: &str) -> bool {
        self.owners.get(panel_id) == Some(&ext)
    }

    /// `ext` closes `panel_id`: forgotten only when it is `ext`'s; returns
    /// whether it was.
    pub fn close_by(&mut self, ext: ExtId, panel_id: &str) -> bool {
        if self.owns(ext, panel_id) {
            self.owners.remove(panel_id);
            self.html.remove(panel_id);
            true
        } else {
            false
        }
    }

    /// Whether `ext` has a panel open (it is in use: `idle_stop.rs`).
    pub fn has_any_of(&self, ext: ExtId) -> bool {
        self.owners.values().any(|o| *o == ext)
    }

    /// The owner of `panel_id`, if open.
    pub fn owner(&self, panel_id: &str) -> Option<ExtId> {
        self.owners.get(panel_id).copied()
    }

    /// The user closed `panel_id`: forgets it; returns its owner.
    pub fn remove(&mut self, panel_id: &str) -> Option<ExtId> {
        self.html.remove(panel_id);
        self.owners.remove(panel_id)
    }

    /// `ext` went away: forgets its panels and returns their ids, sorted.
    pub fn remove_all_of(&mut self, ext: ExtId) -> Vec<String> {
        let mut ids: Vec<String> = self
            .owners
            .iter()
            .filter(|(_, o)| **o == ext)
            .map(|(id, _)| id.clone())
            .collect();
        for id in &ids {
            self.owners.remove(id);
            self.html.remove(id);
        }
        ids.sort();
        ids
    }

    /// Every open panel and its owner, sorted by id.
    pub fn list(&self) -> Vec<(String, ExtId)> {
        let mut v: Vec<(String, ExtId)> =
            self.owners.iter().map(|(id, o)| (id.clone(), *o)).collect();
        v.sort();
        v
    }

    /// Forgets every panel (a new load).
    pub fn clear(&mut self) {
        self.owners.clear();
        self.html.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: ExtId = ExtId(1);
    const B: ExtId = ExtId(2);

    #[test]
    fn the_opener_owns_a_panel_and_may_open_it_again() {
        let mut t = PanelTable::default();
        assert_eq!(t.claim(A, "p"), Ok(()));
        assert_eq!(t.claim(A, "p"), Ok(()));
        assert!(t.owns(A, "p"));
        assert_eq!(t.owner("p"), Some(A));
    }

    #[test]
    fn another_extension_cannot_take_an_id_in_use() {
        let mut t = PanelTable::default();
        t.claim(A, "p").unwrap();
        assert_eq!(t.foreign_owner(B, "p"), Some(A));
        assert_eq!(t.foreign_owner(A, "p"), None);
        assert_eq!(t.claim(B, "p"), Err(A));
        assert!(t.owns(A, "p"));
        assert!(!t.owns(B, "p"));
    }

    #[test]
    fn only_the_owner_closes_its_panel() {
        let mut t = PanelTable::default();
        t.claim(A, "p").unwrap();
        assert!(!t.close_by(B, "p"));
        assert!(t.owns(A, "p"));
        assert!(t.close_by(A, "p"));
        assert!(!t.close_by(A, "p"));
        assert_eq!(t.owner("p"), None);
        // Once closed, the id is free for anyone.
        assert_eq!(t.claim(B, "p"), Ok(()));
    }

    #[test]
    fn an_owner_that_goes_takes_only_its_own_panels() {
        let mut t = PanelTable::default();
        t.claim(A, "b").unwrap();
        t.claim(A, "a").unwrap();
        t.claim(B, "c").unwrap();
        assert!(t.has_any_of(A));
        assert_eq!(t.remove_all_of(A), vec!["a".to_owned(), "b".to_owned()]);
        assert!(!t.has_any_of(A));
        assert!(t.has_any_of(B));
        assert_eq!(t.list(), vec![("c".to_owned(), B)]);
        assert!(t.remove_all_of(A).is_empty());
    }

    #[test]
    fn only_an_open_panel_is_html_and_closing_forgets_it() {
        let mut t = PanelTable::default();
        t.set_html("p", true);
        assert!(!t.is_html("p"), "a panel that is not open is not html");
        t.claim(A, "p").unwrap();
        t.set_html("p", true);
        assert!(t.is_html("p"));
        t.set_html("p", false);
        assert!(!t.is_html("p"), "a reopen with lines is a line panel");
        t.set_html("p", true);
        assert!(t.close_by(A, "p"));
        t.claim(A, "p").unwrap();
        assert!(!t.is_html("p"), "a closed page is forgotten");
        t.set_html("p", true);
        t.remove_all_of(A);
        assert!(!t.is_html("p"));
    }

    #[test]
    fn the_user_closes_any_panel_and_learns_its_owner() {
        let mut t = PanelTable::default();
        t.claim(B, "p").unwrap();
        assert_eq!(t.remove("p"), Some(B));
        assert_eq!(t.remove("p"), None);
        t.claim(A, "q").unwrap();
        t.clear();
        assert!(t.list().is_empty());
    }
}
