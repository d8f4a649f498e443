//! Percentiles of a latency sample.

use std::time::Duration;

/// p50 and p99 in microseconds.
pub struct Summary {
    pub p50: f64,
    pub p99: f64,
}

pub fn summarize(mut xs: Vec<Duration>) -> Summary {
    xs.sort();
    let at = |q: f64| xs[((xs.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1e6;
    Summary {
        p50: at(0.50),
        p99: at(0.99),
    }
}

/// Resident memory of this process in KiB.
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// Pins this thread (and the threads and children it starts later) to CPU 0.
pub fn pin_to_cpu0() {
    // SAFETY: a zeroed cpu_set_t is valid; we pass its true size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(0, &mut set);
        let rc = libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        assert_eq!(rc, 0, "sched_setaffinity failed");
    }
}

/// User plus system CPU time of this process so far.
pub fn cpu_time() -> Duration {
    // SAFETY: getrusage fills the zeroed struct we pass.
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut ru);
        ru
    };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    tv(ru.ru_utime) + tv(ru.ru_stime)
}
