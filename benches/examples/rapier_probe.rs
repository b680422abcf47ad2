use rapier3d::prelude::{ColliderBuilder, PhysicsWorld, RigidBodyBuilder, Vector};
fn main() {
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(100);
    let steps: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(600);
    let mut world = PhysicsWorld::new();
    world.insert(
        RigidBodyBuilder::fixed().translation(Vector::new(0.0, -0.5, 0.0)),
        ColliderBuilder::cuboid(50.0, 0.5, 50.0).friction(0.6),
    );
    let mut hs = vec![];
    let mut start = vec![];
    for r in 0..n {
        let c = n - r;
        for j in 0..c {
            let x = j as f32 - (c as f32 - 1.0) / 2.0;
            let y = 0.5 + r as f32;
            hs.push(
                world
                    .insert(
                        RigidBodyBuilder::dynamic().translation(Vector::new(x, y, 0.0)),
                        ColliderBuilder::cuboid(0.5, 0.5, 0.5).density(1000.0).friction(0.6),
                    )
                    .0,
            );
            start.push((x, y));
        }
    }
    let t0 = std::time::Instant::now();
    for k in 1..=steps {
        world.step();
        if k % 30 == 0 {
            let (mut vmax, mut awake, mut horiz, mut zmax) = (0f32, 0, 0f32, 0f32);
            for (i, &h) in hs.iter().enumerate() {
                let b = &world.bodies[h];
                let v = b.linvel().length() + b.angvel().length() * 0.866;
                vmax = vmax.max(v);
                if !b.is_sleeping() {
                    awake += 1;
                }
                let p = b.translation();
                horiz = horiz.max(((p.x - start[i].0).powi(2) + p.z * p.z).sqrt());
                zmax = zmax.max(p.z.abs());
            }
            println!(
                "t={:.1} vmax={:.4} awake={} horiz={:.4} zmax={:.4} ms/step={:.2}",
                k as f32 / 60.0,
                vmax,
                awake,
                horiz,
                zmax,
                t0.elapsed().as_secs_f64() * 1e3 / k as f64
            );
        }
    }
}
