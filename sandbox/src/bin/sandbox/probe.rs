//! `--scene probe` on the command line: the probe's options turned into a
//! probe session (shapes, B's pose, step, resolve), for `run` and
//! `screenshot`.

use anyhow::{Result, bail};
use sandbox::app::probe::ProbeSession;
use sandbox::tools::probe::{Dim, ProbeAction, ShapeKind, ShapeKind2};

use crate::cli::ProbeArgs;

/// Frames of resolve before a `--resolve` picture: one push lands within
/// rounding of touching, a few more settle it.
const RESOLVE_TICKS: u32 = 8;

/// The probe session `args` describe.
pub fn session(args: &ProbeArgs) -> Result<ProbeSession> {
    let dim = if args.dim == Some(2) { Dim::Two } else { Dim::Three };
    let mut s = ProbeSession::new(dim);
    let p = &mut s.probe;
    match dim {
        Dim::Three => {
            for (name, which) in [(&args.shape_a, 0), (&args.shape_b, 1)] {
                if let Some(name) = name {
                    let kind: ShapeKind = name.parse()?;
                    p.apply(if which == 0 {
                        ProbeAction::ShapeA(kind)
                    } else {
                        ProbeAction::ShapeB(kind)
                    });
                }
            }
        }
        Dim::Two => {
            for (name, which) in [(&args.shape_a, 0), (&args.shape_b, 1)] {
                if let Some(name) = name {
                    let kind: ShapeKind2 = name.parse()?;
                    p.apply(if which == 0 {
                        ProbeAction::ShapeA2(kind)
                    } else {
                        ProbeAction::ShapeB2(kind)
                    });
                }
            }
        }
    }
    if let Some(offset) = &args.b_offset {
        let want = if dim == Dim::Two { 2 } else { 3 };
        if offset.len() != want || !offset.iter().all(|x| x.is_finite()) {
            bail!("`--b-offset` takes {want} finite numbers in {}D", if want == 2 { 2 } else { 3 });
        }
        p.set_b_offset(offset);
    }
    if let Some(angles) = &args.b_angles {
        let want = if dim == Dim::Two { 1 } else { 3 };
        if angles.len() != want || !angles.iter().all(|x| x.is_finite()) {
            bail!(
                "`--b-angles` takes {want} finite angles (degrees) in {}D",
                if want == 1 { 2 } else { 3 }
            );
        }
        p.set_b_angles(&angles.iter().map(|a| a.to_radians()).collect::<Vec<_>>());
    }
    if args.resolve {
        p.apply(ProbeAction::ToggleResolve);
        for _ in 0..RESOLVE_TICKS {
            p.tick();
        }
    }
    if let Some(k) = args.step {
        let n = p.step_count();
        if k as usize > n {
            bail!("`--step {k}`: this pose records {n} steps");
        }
        for _ in 0..k {
            p.apply(ProbeAction::NextStep);
        }
    }
    Ok(s)
}
