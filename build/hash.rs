//! A content hash for cache keys (FNV-1a, 64 bit): stable across Rust versions, unlike
//! `DefaultHasher`, and enough to tell two builds of the helper apart.

pub fn fnv1a64_hex(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}
