//! Which instruction set the solver's hot passes (warm start, push, relax,
//! prepare) run on, chosen once per process.
//!
//! Each pass is compiled once per [`SimdTarget`] (the body is one
//! `#[inline(always)]` function, wrapped in one `#[target_feature]`
//! function per target by [`per_simd_target!`]) and dispatched on the
//! target chosen here. By default that is the best the CPU offers
//! (AVX-512, then AVX2 with FMA, else the SSE2 baseline; SSE4.1 only on
//! request), the order `multiversion`'s dispatcher uses. The environment
//! variable [`SIMD_ENV_VAR`] (`SANDBOX_SIMD=baseline|sse4.1|avx2|avx512`)
//! forces one, so that tests can check that every target gives the same
//! bits (the arithmetic is the same in each: no fused multiply-add
//! contraction). An unknown value, or a target this CPU lacks, is logged
//! as a warning and the default is used: a run never executes
//! instructions the CPU does not have.

use std::sync::OnceLock;

/// The environment variable that forces a [`SimdTarget`]: `baseline`,
/// `sse4.1`, `avx2` or `avx512` (read once, at the first step).
pub const SIMD_ENV_VAR: &str = "SANDBOX_SIMD";

/// An instruction set the solver passes are compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SimdTarget {
    /// The architecture's baseline (SSE2 on x86-64; NEON on aarch64).
    Baseline,
    /// x86-64 with SSE4.1.
    Sse41,
    /// x86-64 with AVX2 and FMA (FMA is enabled, never contracted into).
    Avx2,
    /// x86-64 with AVX-512F and AVX-512VL: 32 vector registers.
    Avx512,
}

impl SimdTarget {
    /// Every target, from the baseline up.
    pub const ALL: [SimdTarget; 4] =
        [SimdTarget::Baseline, SimdTarget::Sse41, SimdTarget::Avx2, SimdTarget::Avx512];

    /// The name [`SIMD_ENV_VAR`] takes for this target.
    pub fn name(self) -> &'static str {
        match self {
            SimdTarget::Baseline => "baseline",
            SimdTarget::Sse41 => "sse4.1",
            SimdTarget::Avx2 => "avx2",
            SimdTarget::Avx512 => "avx512",
        }
    }

    /// The target named `name` (as [`name`](SimdTarget::name) gives it),
    /// or `None`.
    pub fn from_name(name: &str) -> Option<SimdTarget> {
        SimdTarget::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Whether this CPU can run the target (detected at run time).
    pub fn is_supported(self) -> bool {
        match self {
            SimdTarget::Baseline => true,
            #[cfg(target_arch = "x86_64")]
            SimdTarget::Sse41 => std::arch::is_x86_feature_detected!("sse4.1"),
            #[cfg(target_arch = "x86_64")]
            SimdTarget::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
            }
            #[cfg(target_arch = "x86_64")]
            SimdTarget::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vl")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The best target this CPU supports, as chosen without
    /// [`SIMD_ENV_VAR`].
    pub fn best_supported() -> SimdTarget {
        [SimdTarget::Avx512, SimdTarget::Avx2]
            .into_iter()
            .find(|t| t.is_supported())
            .unwrap_or(SimdTarget::Baseline)
    }

    /// The target the solver runs on in this process: [`SIMD_ENV_VAR`]'s
    /// if set to a supported target, else the best supported (an unknown
    /// or unsupported value is logged as a warning). Chosen on the first
    /// call and fixed from then on.
    pub fn selected() -> SimdTarget {
        static SELECTED: OnceLock<SimdTarget> = OnceLock::new();
        *SELECTED.get_or_init(|| {
            let value = std::env::var(SIMD_ENV_VAR).ok();
            let (target, warning) = choose(value.as_deref());
            if let Some(warning) = warning {
                log::warn!("{warning}");
            }
            target
        })
    }

    /// Why [`SIMD_ENV_VAR`]'s current value cannot be honoured (an unknown
    /// name, or a target this CPU lacks), or `None` when it can or is
    /// unset: the warning [`selected`](SimdTarget::selected) logs, for a
    /// command line to show whatever the log level.
    pub fn env_problem() -> Option<String> {
        choose(std::env::var(SIMD_ENV_VAR).ok().as_deref()).1
    }
}

impl std::fmt::Display for SimdTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The target for the environment value `value` (unset: `None`), and the
/// warning to log if the value could not be honoured.
fn choose(value: Option<&str>) -> (SimdTarget, Option<String>) {
    let best = SimdTarget::best_supported();
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return (best, None);
    };
    match SimdTarget::from_name(value) {
        Some(target) if target.is_supported() => (target, None),
        Some(target) => (
            best,
            Some(format!("{SIMD_ENV_VAR}={target}: this CPU does not support it; using {best}")),
        ),
        None => {
            let names: Vec<_> = SimdTarget::ALL.iter().map(|t| t.name()).collect();
            let names = names.join(", ");
            (best, Some(format!("{SIMD_ENV_VAR}={value:?} is not one of {names}; using {best}")))
        }
    }
}

/// Defines `pub(crate) fn $name` that runs `$body` compiled for the
/// [`SimdTarget::selected`] target. The body is an `#[inline(always)]`
/// function, so each wrapper compiles it whole with its target's features.
macro_rules! per_simd_target {
    (
        $(#[$meta:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block
    ) => {
        $(#[$meta])*
        // The one unsafe use in the crate, the same `multiversion` made
        // inside its macro: calling a `#[target_feature]` function, only
        // after run-time detection found the features.
        #[allow(unsafe_code)]
        pub(crate) fn $name($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn body($($arg: $ty),*) $(-> $ret)? $body

            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "sse4.1")]
            unsafe fn sse41($($arg: $ty),*) $(-> $ret)? {
                body($($arg),*)
            }

            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn avx2($($arg: $ty),*) $(-> $ret)? {
                body($($arg),*)
            }

            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx512f,avx512vl")]
            unsafe fn avx512($($arg: $ty),*) $(-> $ret)? {
                body($($arg),*)
            }

            use $crate::solver::simd_target::SimdTarget;
            match SimdTarget::selected() {
                // SAFETY: `selected` returns a target only after
                // `is_supported` detected its features on this CPU.
                #[cfg(target_arch = "x86_64")]
                SimdTarget::Avx512 => unsafe { avx512($($arg),*) },
                #[cfg(target_arch = "x86_64")]
                SimdTarget::Avx2 => unsafe { avx2($($arg),*) },
                #[cfg(target_arch = "x86_64")]
                SimdTarget::Sse41 => unsafe { sse41($($arg),*) },
                _ => body($($arg),*),
            }
        }
    };
}
pub(crate) use per_simd_target;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_or_empty_picks_the_best_supported_without_warning() {
        assert_eq!(choose(None), (SimdTarget::best_supported(), None));
        assert_eq!(choose(Some("  ")), (SimdTarget::best_supported(), None));
    }

    #[test]
    fn every_supported_name_is_honoured() {
        for t in SimdTarget::ALL.into_iter().filter(|t| t.is_supported()) {
            assert_eq!(choose(Some(t.name())), (t, None));
        }
    }

    #[test]
    fn unknown_name_warns_and_falls_back() {
        let (target, warning) = choose(Some("avx1024"));
        assert_eq!(target, SimdTarget::best_supported());
        let warning = warning.expect("a warning");
        assert!(warning.contains("avx1024") && warning.contains("avx512"), "{warning}");
    }
}
