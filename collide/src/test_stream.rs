//! A deterministic stream of numbers for unit tests: xorshift32 (Marsaglia,
//! 2003) mapped to [-1, 1). Small, seedable and the same on every machine,
//! so a failing sample can be replayed; not for anything statistical.

/// Numbers in [-1, 1) from `seed` (nonzero).
pub(crate) fn stream(seed: u32) -> impl FnMut() -> f32 {
    let mut s = seed;
    move || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        (s as f32 / u32::MAX as f32) * 2.0 - 1.0
    }
}
