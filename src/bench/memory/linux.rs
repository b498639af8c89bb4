//! Linux: `MemAvailable` from /proc/meminfo, VmSize from /proc/self/statm and the mapping
//! limit from /proc/sys/vm/max_map_count.

use super::super::ballast::page_size;

pub fn available() -> Option<(u64, &'static str)> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some((kib.checked_mul(1024)?, "MemAvailable"))
}

pub fn address_space_used() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    pages.checked_mul(page_size().ok()? as u64)
}

pub fn max_mappings() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/sys/vm/max_map_count").ok()?;
    text.trim().parse().ok()
}
