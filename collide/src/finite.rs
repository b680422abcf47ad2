//! One branch-free finiteness test over a slice of `f32`, shared by the
//! shapes' cores and every query's input check.

/// Whether every value is finite (neither NaN nor ±∞).
///
/// `x · 0` is exactly ±0 for a finite `x` and NaN for an infinite or NaN
/// one, and a sum of zeros and NaNs is 0 only if every term is 0. Unlike
/// summing the values themselves this cannot overflow, and it costs two
/// instructions per value with no branch (testing each value's exponent
/// bits costs four).
#[inline(always)]
pub(crate) fn all_finite(values: &[f32]) -> bool {
    values.iter().fold(0.0f32, |sum, x| sum + x * 0.0) == 0.0
}
