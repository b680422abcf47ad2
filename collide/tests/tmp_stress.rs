use collide::ConvexHull;
use collide::nalgebra::{Point3, Vector3};
use std::time::Instant;

fn rng(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}
fn sphere(count: usize, seed: u64) -> Vec<Point3<f32>> {
    let mut next = rng(seed);
    (0..count)
        .map(|_| {
            let z = 2.0 * next() - 1.0;
            let phi = std::f64::consts::TAU * next();
            let r = (1.0 - z * z).sqrt();
            Point3::from(Vector3::new(r * phi.cos(), r * phi.sin(), z).cast::<f32>())
        })
        .collect()
}
fn report(name: &str, pts: &[Point3<f32>]) {
    let t = Instant::now();
    let h = ConvexHull::new(pts);
    let dt = t.elapsed();
    match h {
        Ok(h) => {
            let maxdeg = h.faces().iter().map(|f| f.vertices.len()).max().unwrap();
            println!(
                "{name}: n={} V={} F={} maxface={} vol={} in {:?}",
                pts.len(),
                h.vertices().len(),
                h.faces().len(),
                maxdeg,
                h.volume(),
                dt
            )
        }
        Err(e) => println!("{name}: n={} err {e:?} in {dt:?}", pts.len()),
    }
}
#[test]
fn stress() {
    for n in [1000, 10_000, 100_000, 300_000] {
        report("sphere", &sphere(n, 3));
    }
    // Cube face points with noise of various sizes relative to the size.
    for noise in [1e-7, 1e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4] {
        let mut next = rng(11);
        let mut pts = Vec::new();
        for _ in 0..20000 {
            let axis = (next() * 3.0) as usize % 3;
            let side = if next() < 0.5 { -1.0 } else { 1.0 };
            let mut q = [2.0 * next() - 1.0, 2.0 * next() - 1.0, 2.0 * next() - 1.0];
            q[axis] = side + noise * (2.0 * next() - 1.0);
            pts.push(Point3::new(q[0] as f32, q[1] as f32, q[2] as f32));
        }
        report(&format!("noisy cube {noise}"), &pts);
    }
    // Cylinder: two caps of coplanar points plus the side.
    let mut next = rng(5);
    let mut pts = Vec::new();
    for _ in 0..20000 {
        let phi = std::f64::consts::TAU * next();
        let r = next().sqrt();
        let z = if next() < 0.3 {
            2.0 * next() - 1.0
        } else if next() < 0.5 {
            -1.0
        } else {
            1.0
        };
        let r = if z.abs() < 1.0 { 1.0 } else { r };
        pts.push(Point3::new((r * phi.cos()) as f32, (r * phi.sin()) as f32, z as f32));
    }
    report("cylinder", &pts);
    // Dense ring of points: many near-coplanar slivers.
    let pts: Vec<_> = (0..50000)
        .map(|i| {
            let a = i as f32 * 0.000125_f32;
            Point3::new(a.cos(), a.sin(), if i % 2 == 0 { 0.0 } else { 1e-3 })
        })
        .collect();
    report("thin ring", &pts);
    let pts: Vec<_> = (0..50000)
        .map(|i| {
            let a = i as f32 * 0.000125_f32;
            Point3::new(a.cos(), a.sin(), if i % 2 == 0 { 0.0 } else { 1.0 })
        })
        .collect();
    report("ring cylinder", &pts);
}
