//! Masking as a serialiser step: [`Masked`] serialises any value through
//! a serializer that hands every string (map keys included) to
//! [`Secrets::mask`] on its way to the real serializer (serde_json's writer,
//! its `Value` builder, Tauri's). Nothing else changes: a value without
//! secrets serialises to exactly the bytes it would have without the
//! wrapper. Struct field and enum variant names are the types' own
//! `&'static str`s, not data, and pass as they are.

use serde::ser::{
    Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
    SerializeTupleStruct, SerializeTupleVariant, Serializer,
};

use super::mask::Secrets;

/// What every level of one serialisation shares.
#[derive(Clone, Copy)]
struct Ctx<'c> {
    /// The secrets to mask.
    secrets: &'c Secrets,
}

/// `value`, serialised with every secret in its strings masked.
pub struct Masked<'a, T: ?Sized> {
    /// The value.
    value: &'a T,
    /// The secrets.
    ctx: Ctx<'a>,
}

impl<'a, T: ?Sized> Masked<'a, T> {
    /// `value`, to be serialised with `secrets` masked.
    pub fn new(value: &'a T, secrets: &'a Secrets) -> Self {
        Masked {
            value,
            ctx: Ctx { secrets },
        }
    }
}

impl<T: ?Sized + Serialize> Serialize for Masked<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(Masking {
            inner: s,
            ctx: self.ctx,
        })
    }
}

/// The wrapping serializer, and the wrapper of its compound parts (`S` is
/// then the inner `SerializeSeq`, `SerializeMap`, …).
struct Masking<'c, S> {
    /// The real serializer.
    inner: S,
    /// Shared by every level.
    ctx: Ctx<'c>,
}

impl<'c, S> Masking<'c, S> {
    fn masked<'v, T: ?Sized>(&self, value: &'v T) -> Masked<'v, T>
    where
        'c: 'v,
    {
        Masked {
            value,
            ctx: self.ctx,
        }
    }
}

/// Methods that pass a scalar through unchanged.
macro_rules! pass {
    ($($name:ident($t:ty)),* $(,)?) => {
        $(fn $name(self, v: $t) -> Result<S::Ok, S::Error> {
            self.inner.$name(v)
        })*
    };
}

impl<'c, S: Serializer> Serializer for Masking<'c, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Masking<'c, S::SerializeSeq>;
    type SerializeTuple = Masking<'c, S::SerializeTuple>;
    type SerializeTupleStruct = Masking<'c, S::SerializeTupleStruct>;
    type SerializeTupleVariant = Masking<'c, S::SerializeTupleVariant>;
    type SerializeMap = Masking<'c, S::SerializeMap>;
    type SerializeStruct = Masking<'c, S::SerializeStruct>;
    type SerializeStructVariant = Masking<'c, S::SerializeStructVariant>;

    pass!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_unit_struct(&'static str),
    );

    fn serialize_str(self, v: &str) -> Result<S::Ok, S::Error> {
        self.inner.serialize_str(&self.ctx.secrets.mask(v))
    }

    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_none()
    }

    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<S::Ok, S::Error> {
        let m = self.masked(v);
        self.inner.serialize_some(&m)
    }

    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit_variant(name, index, variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        v: &T,
    ) -> Result<S::Ok, S::Error> {
        let m = self.masked(v);
        self.inner.serialize_newtype_struct(name, &m)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<S::Ok, S::Error> {
        let m = self.masked(v);
        self.inner
            .serialize_newtype_variant(name, index, variant, &m)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        let ctx = self.ctx;
        Ok(Masking {
            inner: self.inner.serialize_seq(len)?,
            ctx,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        let ctx = self.ctx;
        Ok(Masking {
            inner: self.inner.serialize_tuple(len)?,
            ctx,
        })
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        let ctx = self.ctx;
        Ok(Masking {
            inner: self.inner.serialize_tuple_struct(name, len)?,
            ctx,
        })
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        let ctx = self.ctx;
        Ok(Masking {
            inner: self
                .inner
                .serialize_tuple_variant(name, index, variant, len)?,
            ctx,
        })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        let ctx = self.ctx;
        Ok(Masking {
            inner: self.inner.serialize_map(len)?,
            ctx,
        })
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        let ctx = self.ctx;
        Ok(Masking {
            inner: self.inner.serialize_struct(name, len)?,
            ctx,
        })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        let ctx = self.ctx;
        Ok(Masking {
            inner: self
                .inner
                .serialize_struct_variant(name, index, variant, len)?,
            ctx,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// A sequence-like compound (its parts have no key): each part masked.
macro_rules! masked_parts {
    ($($trait:ident :: $method:ident),* $(,)?) => {$(
        impl<S: $trait> $trait for Masking<'_, S> {
            type Ok = S::Ok;
            type Error = S::Error;

            fn $method<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), S::Error> {
                let m = self.masked(v);
                self.inner.$method(&m)
            }

            fn end(self) -> Result<S::Ok, S::Error> {
                self.inner.end()
            }
        }
    )*};
}

masked_parts!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

impl<S: SerializeMap> SerializeMap for Masking<'_, S> {
    type Ok = S::Ok;
    type Error = S::Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, k: &T) -> Result<(), S::Error> {
        let m = self.masked(k);
        self.inner.serialize_key(&m)
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), S::Error> {
        let m = self.masked(v);
        self.inner.serialize_value(&m)
    }

    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        k: &K,
        v: &V,
    ) -> Result<(), S::Error> {
        let (mk, mv) = (self.masked(k), self.masked(v));
        self.inner.serialize_entry(&mk, &mv)
    }

    fn end(self) -> Result<S::Ok, S::Error> {
        self.inner.end()
    }
}

/// A struct-like compound: its field names are the type's own (never
/// masked), its values are masked.
macro_rules! masked_fields {
    ($($trait:ident),*) => {$(
        impl<S: $trait> $trait for Masking<'_, S> {
            type Ok = S::Ok;
            type Error = S::Error;

            fn serialize_field<T: ?Sized + Serialize>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), S::Error> {
                let m = self.masked(v);
                self.inner.serialize_field(key, &m)
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), S::Error> {
                self.inner.skip_field(key)
            }

            fn end(self) -> Result<S::Ok, S::Error> {
                self.inner.end()
            }
        }
    )*};
}

masked_fields!(SerializeStruct, SerializeStructVariant);
