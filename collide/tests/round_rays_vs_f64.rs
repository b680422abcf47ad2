//! Ray casts on spheres and capsules against f64 oracles written here, in
//! the cases where an f32 closed form is most at risk: origins 1e3 to 1e4
//! radii away, rays tangent to the surface to within a few ulps, rays
//! starting on the surface or just off it, radii from 1e-3 to 1e3.
//!
//! The oracles take the f32 inputs exactly (every difference of two f32
//! numbers is exact in f64) and solve in the geometric form, with a unit
//! direction: the closest approach to the centre (or the capsule's axis),
//! then the half chord. The casts are asked to be exact to the f32 rounding
//! of the scene: an answer off by a few ulps of the scene's largest
//! coordinate, as much as rounding the ray's origin to f32 moves the ray.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{Capsule, Ray, RayCast, Sphere, try_cast_ray};

/// Ulps of the scene (`scene` below) that a cast's parameter and hit point
/// may be off by: the origin's, the centre's and the hit point's own f32
/// rounding (each at most half an ulp of the scene), with room for two
/// more.
const SCENE_ULPS: f64 = 4.0;

/// Ulps (of 1) that a hit's unit normal may be off, in length and in
/// direction: its own rounding, and a capsule's axis, which is rotated in
/// f32 (nine ulps seen at a thousand radii; the sphere's are within four).
const NORMAL_ULPS: f64 = 16.0;

/// f32's machine epsilon, in f64.
const EPS: f64 = f32::EPSILON as f64;

/// Radii of the cases: 1e-3 to 1e3.
const RADII: [f64; 5] = [1e-3, 1e-1, 1.0, 10.0, 1e3];

/// A small seeded generator (SplitMix64), so each case is reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn unit(&mut self) -> Vector3<f64> {
        loop {
            let v = Vector3::new(self.range(-1., 1.), self.range(-1., 1.), self.range(-1., 1.));
            let n = v.norm();
            if n > 1e-3 && n <= 1.0 {
                return v / n;
            }
        }
    }
}

/// What the oracle expects of a cast.
#[derive(Debug, Clone, Copy)]
enum Want {
    StartsInside,
    Miss,
    /// Entry at `t` (f64, in multiples of `dir`) with unit `normal`.
    Hit {
        t: f64,
        normal: Vector3<f64>,
    },
}

/// The ray `o + t d` against the ball of radius `r` about `c`, f64,
/// geometric form, no `max_toi`. Also returns the margin of the outcome:
/// how far (in length) the ray's closest approach or its origin is from
/// the surface, for judging which cases rounding may flip.
fn ball_oracle(o: &Vector3<f64>, d: &Vector3<f64>, c: &Vector3<f64>, r: f64) -> (Want, f64) {
    let f = o - c;
    let origin_gap = f.norm() - r;
    if origin_gap <= 0.0 {
        return (Want::StartsInside, -origin_gap);
    }
    let len = d.norm();
    let u = d / len;
    let along = -f.dot(&u);
    let closest = f + u * along;
    let lateral_gap = closest.norm() - r;
    if along <= 0.0 {
        // Receding: the origin is the closest point.
        return (Want::Miss, origin_gap);
    }
    if lateral_gap > 0.0 {
        return (Want::Miss, lateral_gap.min(origin_gap));
    }
    let half_chord = (r * r - closest.norm_squared()).max(0.0).sqrt();
    let s = along - half_chord;
    let normal = (closest - u * half_chord) / r;
    (Want::Hit { t: s / len, normal }, (-lateral_gap).min(origin_gap))
}

/// The capsule about the segment `c ± h·a` (`a` unit) of radius `r`
/// against the ray, f64: the side of the infinite cylinder within the
/// span, else the nearer end ball. The margin is the origin's distance
/// from the surface and, for a side hit or a miss of the side, the ray's
/// closest approach to the axis from the radius.
fn capsule_oracle(
    o: &Vector3<f64>,
    d: &Vector3<f64>,
    c: &Vector3<f64>,
    a: &Vector3<f64>,
    h: f64,
    r: f64,
) -> (Want, f64) {
    let f = o - c;
    let on_axis = f.dot(a).clamp(-h, h);
    let origin_gap = (f - a * on_axis).norm() - r;
    if origin_gap <= 0.0 {
        return (Want::StartsInside, -origin_gap);
    }
    // The side: the ball's form on the components off the axis.
    let (f_off, d_off) = (f - a * f.dot(a), d - a * d.dot(a));
    let mut best: Option<(Want, f64)> = None;
    if d_off.norm() > 0.0 {
        let (want, margin) = ball_oracle(&f_off, &d_off, &Vector3::zeros(), r);
        if let Want::Hit { t, normal } = want {
            if (f.dot(a) + t * d.dot(a)).abs() <= h {
                return (Want::Hit { t, normal }, margin.min(origin_gap));
            }
        } else if matches!(want, Want::Miss) {
            // Missing the infinite cylinder misses the capsule.
            return (Want::Miss, margin.min(origin_gap));
        }
    }
    let mut miss_margin = origin_gap;
    for end in [c + a * h, c - a * h] {
        let (want, margin) = ball_oracle(o, d, &end, r);
        if let Want::Hit { t, .. } = want {
            if best.is_none_or(|(b, _)| matches!(b, Want::Hit { t: bt, .. } if t < bt)) {
                best = Some((want, margin.min(origin_gap)));
            }
        } else {
            miss_margin = miss_margin.min(margin);
        }
    }
    match best {
        // A hit on one ball near the other's rim is as sharp as the rim.
        Some((want, margin)) => (want, margin.min(miss_margin)),
        None => (Want::Miss, miss_margin),
    }
}

/// Judges collide's answer against the oracle's. `scene` is the largest
/// length in the case (coordinates of the origin and the centre, the
/// distance between them, the radius), `r` the surface's radius, `margin`
/// the oracle's margin: within `SCENE_ULPS` ulps of `scene` the outcome may
/// go either way, and a hit is then only asked to lie on the surface.
fn judge(
    got: RayCast,
    (want, margin): (Want, f64),
    ray: &Ray,
    on_surface: impl Fn(&Vector3<f64>) -> f64,
    scene: f64,
    r: f64,
) -> Result<(), String> {
    let band = SCENE_ULPS * EPS * scene;
    let ambiguous = margin <= band;
    let dir = ray.dir.cast::<f64>();
    match got {
        RayCast::Hit { toi, point, normal } => {
            let p = point.cast::<f64>();
            let n = normal.into_inner().cast::<f64>();
            // The point lies on the surface, and the normal is unit, faces
            // the ray, and is the surface's normal there (to the rounding
            // of the scene, relative to the radius).
            let off = on_surface(&p.coords);
            if !(off.abs() <= band) {
                return Err(format!("point {off:e} off the surface (band {band:e})"));
            }
            // The normal does not inherit the scene's rounding: it is the
            // hit point's offset from the centre (or the axis) computed in
            // f64 from the exact inputs, rounded once.
            let n_tol = NORMAL_ULPS * EPS;
            if !((n.norm() - 1.0).abs() <= n_tol) {
                return Err(format!("|normal| − 1 = {:e} (tolerance {n_tol:e})", n.norm() - 1.0));
            }
            if !(n.dot(&dir) <= n_tol * dir.norm()) {
                return Err(format!("normal {n:?} along the ray"));
            }
            match want {
                Want::Hit { t, normal: n_want } => {
                    let t_err = (f64::from(toi) - t).abs() * dir.norm();
                    // A grazing hit's parameter is ill-conditioned (the
                    // half chord is a square root of the miss distance);
                    // its point and normal are still checked above.
                    let chord = (t * dir.norm()).max(0.0);
                    if margin > 1e-2 * r && !(t_err <= band + EPS * chord) {
                        return Err(format!("toi {toi}, oracle {t}: {t_err:e} off"));
                    }
                    let n_err = (n - n_want).norm();
                    if margin > 1e-2 * r && !(n_err <= 2.0 * n_tol) {
                        return Err(format!("normal {n:?}, oracle {n_want:?}: {n_err:e} off"));
                    }
                    Ok(())
                }
                _ if ambiguous => Ok(()),
                _ => Err(format!("hit at {toi}, oracle {want:?} (margin {margin:e})")),
            }
        }
        RayCast::StartsInside if matches!(want, Want::StartsInside) || ambiguous => Ok(()),
        RayCast::Miss if matches!(want, Want::Miss) || ambiguous => Ok(()),
        _ => Err(format!("collide {got:?}, oracle {want:?} (margin {margin:e}, band {band:e})")),
    }
}

/// The largest length of a case: the scene's f32 rounding is relative to it.
fn scene_of(ray: &Ray, centre: &Vector3<f64>, r: f64) -> f64 {
    let o = ray.origin.coords.cast::<f64>();
    o.amax().max(centre.amax()).max((o - centre).norm()).max(r)
}

/// The ray from `from` through `through` (f64, rounded to f32 once), its
/// direction scaled by `scale`.
fn ray_through(from: &Vector3<f64>, through: &Vector3<f64>, scale: f64) -> Ray {
    Ray::new(Point3::from(from.cast::<f32>()), ((through - from) * scale).cast::<f32>())
}

/// Casts a sphere of radius `r` at `centre` and judges it.
fn check_sphere(ray: &Ray, centre: &Vector3<f64>, r: f64, what: &str) {
    let centre_f32 = centre.cast::<f32>();
    let c = centre_f32.cast::<f64>();
    let r = f64::from(r as f32);
    let pose = Isometry3::from_parts(Translation3::from(centre_f32), UnitQuaternion::identity());
    let got = try_cast_ray(&Sphere::new(r as f32), &pose, ray, f32::INFINITY).unwrap();
    let want = ball_oracle(&ray.origin.coords.cast(), &ray.dir.cast(), &c, r);
    let on_surface = |p: &Vector3<f64>| (p - c).norm() - r;
    if let Err(e) = judge(got, want, ray, on_surface, scene_of(ray, &c, r), r) {
        panic!("{what}: {e}\n ray {ray:?}, centre {c:?}, r {r}");
    }
}

/// Casts a capsule (half height `h`, radius `r`) posed at `pose` and
/// judges it.
fn check_capsule(ray: &Ray, pose: &Isometry3<f32>, h: f32, r: f32, what: &str) {
    let got = try_cast_ray(&Capsule::new(h, r), pose, ray, f32::INFINITY).unwrap();
    let c = pose.translation.vector.cast::<f64>();
    let a = (pose.rotation * Vector3::y()).cast::<f64>().normalize();
    let (h, r) = (f64::from(h), f64::from(r));
    let want = capsule_oracle(&ray.origin.coords.cast(), &ray.dir.cast(), &c, &a, h, r);
    let on_surface = |p: &Vector3<f64>| {
        let f = p - c;
        (f - a * f.dot(&a).clamp(-h, h)).norm() - r
    };
    // The capsule's rotated axis is rounded to f32: the scene includes the
    // ends' coordinates.
    if let Err(e) = judge(got, want, ray, on_surface, scene_of(ray, &c, r) + h, r) {
        panic!("{what}: {e}\n ray {ray:?}, pose {pose:?}, h {h}, r {r}");
    }
}

fn random_pose(rng: &mut Rng, reach: f64) -> Isometry3<f32> {
    let centre = rng.unit() * rng.range(0.0, reach);
    let rot = UnitQuaternion::from_scaled_axis(rng.unit() * rng.range(0.0, std::f64::consts::PI));
    Isometry3::from_parts(Translation3::from(centre.cast::<f32>()), rot.cast::<f32>())
}

/// A posed capsule's centre and axis direction (its local y), in f64.
fn centre_and_axis(pose: &Isometry3<f32>) -> (Vector3<f64>, Vector3<f64>) {
    (pose.translation.vector.cast::<f64>(), (pose.rotation * Vector3::y()).cast::<f64>())
}

#[test]
fn sphere_rays_from_far_origins() {
    let mut rng = Rng(0x5EED_0001);
    for &r in &RADII {
        for &far in &[1e3, 3e3, 1e4] {
            for i in 0..300 {
                let centre = rng.unit() * rng.range(0.0, 10.0 * r);
                let from = centre + rng.unit() * far * r;
                // Aimed well inside (a clear hit), or past the rim (a clear
                // miss), or within a hundredth of the rim (either).
                let aim = match i % 3 {
                    0 => rng.range(0.0, 0.9),
                    1 => rng.range(1.1, 3.0),
                    _ => rng.range(0.99, 1.01),
                };
                let through = centre + rng.unit().cross(&(from - centre)).normalize() * aim * r;
                let ray = ray_through(&from, &through, rng.range(0.1, 10.0) / (far * r));
                check_sphere(&ray, &centre, r, &format!("r {r} far {far} case {i}"));
            }
        }
    }
}

#[test]
fn sphere_rays_tangent_within_a_few_ulps() {
    let mut rng = Rng(0x5EED_0002);
    for &r in &RADII {
        for i in 0..200 {
            let centre = rng.unit() * rng.range(0.0, 10.0 * r);
            let dir = rng.unit();
            let side = rng.unit().cross(&dir).normalize();
            let back = rng.range(1.0, 100.0) * r;
            // Offsets from the tangent of -8..8 ulps of the radius.
            let ulps = f64::from(i % 17) - 8.0;
            let lateral = r * (1.0 + ulps * EPS);
            let from = centre + side * lateral - dir * back;
            let ray = Ray::new(Point3::from(from.cast::<f32>()), dir.cast::<f32>());
            check_sphere(&ray, &centre, r, &format!("r {r} tangent {ulps} ulps case {i}"));
        }
    }
}

#[test]
fn sphere_rays_starting_on_or_near_the_surface() {
    let mut rng = Rng(0x5EED_0003);
    for &r in &RADII {
        for i in 0..300 {
            let centre = rng.unit() * rng.range(0.0, 10.0 * r);
            let radial = rng.unit();
            // On the surface, or a hair (1e-6 to 1e-2 radii) out or in.
            let gap = match i % 3 {
                0 => 0.0,
                1 => rng.range(1e-6, 1e-2),
                _ => -rng.range(1e-6, 1e-2),
            };
            let from = centre + radial * r * (1.0 + gap);
            // Inward, outward or along the surface.
            let dir = match i % 5 {
                0 => -radial,
                1 => radial,
                2 => radial.cross(&rng.unit()).normalize(),
                _ => rng.unit(),
            };
            let ray = Ray::new(Point3::from(from.cast::<f32>()), dir.cast::<f32>());
            check_sphere(&ray, &centre, r, &format!("r {r} gap {gap:e} case {i}"));
        }
    }
    // Exactly on the surface (every number exact): inside, whatever the
    // direction.
    for &r in &[0.25f32, 1.0, 1024.0] {
        let ray = Ray::new(Point3::new(r, 0.0, 0.0), Vector3::new(1.0, 0.5, 0.0));
        let got = try_cast_ray(&Sphere::new(r), &Isometry3::identity(), &ray, 10.0).unwrap();
        assert_eq!(got, RayCast::StartsInside, "r {r}");
    }
}

#[test]
fn capsule_rays_from_far_origins() {
    let mut rng = Rng(0x5EED_0004);
    for &r in &RADII {
        for &far in &[1e3, 3e3, 1e4] {
            for i in 0..300 {
                let pose = random_pose(&mut rng, 10.0 * r);
                let h = (r * [0.5, 2.0][i % 2]) as f32;
                let (c, a) = centre_and_axis(&pose);
                let from = c + rng.unit() * far * r;
                // A point of the core (or beyond its ends, to reach the
                // balls' far sides and to miss), pushed off it.
                let along = rng.range(-2.0, 2.0) * f64::from(h);
                let off = a.cross(&rng.unit()).normalize() * rng.range(0.0, 2.0) * r;
                let ray = ray_through(&from, &(c + a * along + off), rng.range(0.1, 10.0) / far);
                check_capsule(&ray, &pose, h, r as f32, &format!("r {r} far {far} case {i}"));
            }
        }
    }
}

#[test]
fn capsule_rays_tangent_within_a_few_ulps() {
    let mut rng = Rng(0x5EED_0005);
    for &r in &RADII {
        for i in 0..300 {
            let pose = random_pose(&mut rng, 10.0 * r);
            let h = r as f32;
            let (c, a) = centre_and_axis(&pose);
            let ulps = f64::from(i as u32 % 17) - 8.0;
            let lateral = r * (1.0 + ulps * EPS);
            let (from, dir) = if i % 2 == 0 {
                // Across the side, perpendicular to the axis, within the span.
                let dir = a.cross(&rng.unit()).normalize();
                let side = a.cross(&dir);
                let along = rng.range(-0.9, 0.9) * f64::from(h);
                (c + a * along + side * lateral - dir * rng.range(1.0, 100.0) * r, dir)
            } else {
                // Tangent to an end ball, beyond the end.
                let end = c + a * f64::from(h);
                let dir = a.cross(&rng.unit()).normalize();
                (end + a * lateral - dir * rng.range(1.0, 100.0) * r, dir)
            };
            let ray = Ray::new(Point3::from(from.cast::<f32>()), dir.cast::<f32>());
            check_capsule(&ray, &pose, h, r as f32, &format!("r {r} tangent {ulps} ulps case {i}"));
        }
    }
}

#[test]
fn capsule_rays_starting_on_or_near_the_surface() {
    let mut rng = Rng(0x5EED_0006);
    for &r in &RADII {
        for i in 0..300 {
            let pose = random_pose(&mut rng, 10.0 * r);
            let h = r as f32;
            let (c, a) = centre_and_axis(&pose);
            let gap = match i % 3 {
                0 => 0.0,
                1 => rng.range(1e-6, 1e-2),
                _ => -rng.range(1e-6, 1e-2),
            };
            // A surface point on the side or on an end ball, and its normal.
            let along = rng.range(-2.0, 2.0) * f64::from(h);
            let core = c + a * along.clamp(-f64::from(h), f64::from(h));
            let normal = if along.abs() <= f64::from(h) {
                a.cross(&rng.unit()).normalize()
            } else {
                let n = rng.unit();
                if n.dot(&a) * along < 0.0 { -n } else { n }
            };
            let from = core + normal * r * (1.0 + gap);
            let dir = match i % 5 {
                0 => -normal,
                1 => normal,
                2 => normal.cross(&rng.unit()).normalize(),
                _ => rng.unit(),
            };
            let ray = Ray::new(Point3::from(from.cast::<f32>()), dir.cast::<f32>());
            check_capsule(&ray, &pose, h, r as f32, &format!("r {r} gap {gap:e} case {i}"));
        }
    }
}
