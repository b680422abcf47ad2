use sandbox::*;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let scene = a[1].parse::<Scene>().unwrap();
    let size: usize = a[2].parse().unwrap();
    let steps: usize = a[3].parse().unwrap();
    let mut s = StepSettings::default();
    if let Some(v) = a.get(4) {
        s.substeps = v.parse().unwrap();
    }
    if let Some(v) = a.get(5) {
        s.contact_hertz = v.parse().unwrap();
    }
    s.sleep_enabled = a.get(6).map(|v| v == "1").unwrap_or(true);
    if let Ok(v) = std::env::var("PI") {
        s.push_iterations = v.parse().unwrap();
    }
    if let Ok(v) = std::env::var("RI") {
        s.relax_iterations = v.parse().unwrap();
    }
    if let Ok(v) = std::env::var("SV") {
        s.sleep_velocity = v.parse().unwrap();
    }
    if let Ok(v) = std::env::var("CD") {
        s.contact_damping_ratio = v.parse().unwrap();
    }
    let mut w = World::with_settings(s);
    let ids = build_scene(&mut w, scene, size).unwrap();
    let start: Vec<_> = ids.iter().map(|&i| w.pose(i).unwrap().translation.vector).collect();
    let t0 = std::time::Instant::now();
    let mut maxpen = 0.0f32;
    for k in 1..=steps {
        w.step(1.0 / 60.0);
        maxpen = maxpen.max(w.max_penetration());
        if let Ok(t) = std::env::var("TRACE") {
            let id = ids[t.parse::<usize>().unwrap()];
            if k >= 120 && k < 200 {
                let lv = w.linear_velocity(id).unwrap();
                let av = w.angular_velocity(id).unwrap();
                let p = w.pose(id).unwrap();
                println!(
                    "k={} p=({:.5},{:.5},{:.5}) v=({:.4},{:.4},{:.4}) w=({:.4},{:.4},{:.4}) rz={:.5}",
                    k,
                    p.translation.x,
                    p.translation.y,
                    p.translation.z,
                    lv.x,
                    lv.y,
                    lv.z,
                    av.x,
                    av.y,
                    av.z,
                    p.rotation.euler_angles().2
                );
            }
        }
        if k % (steps / 10).max(1) == 0 {
            let (mut drift, mut horiz, mut sink, mut vmax) = (0f32, 0f32, 0f32, 0f32);
            let mut awake = 0;
            let mut arg = 0usize;
            for (i, &id) in ids.iter().enumerate() {
                let p = w.pose(id).unwrap().translation.vector;
                let d = p - start[i];
                drift = drift.max(d.norm());
                horiz = horiz.max((d.x * d.x + d.z * d.z).sqrt());
                sink = sink.max(-d.y);
                let v = w.linear_velocity(id).unwrap().norm()
                    + w.angular_velocity(id).unwrap().norm() * 0.866;
                if v > vmax {
                    vmax = v;
                    arg = i;
                }
                if w.is_awake(id).unwrap() {
                    awake += 1;
                }
            }
            let lv = w.linear_velocity(ids[arg]).unwrap();
            let av = w.angular_velocity(ids[arg]).unwrap();
            let pp = w.pose(ids[arg]).unwrap().translation.vector;
            println!(
                "arg={} at ({:.2},{:.2},{:.3}) v=({:.3},{:.3},{:.3}) w=({:.3},{:.3},{:.3})",
                arg, pp.x, pp.y, pp.z, lv.x, lv.y, lv.z, av.x, av.y, av.z
            );
            println!(
                "t={:.1}s drift={:.4} horiz={:.4} sink={:.4} vmax={:.4} awake={} maxpen={:.4} ms/step={:.3}",
                k as f32 / 60.0,
                drift,
                horiz,
                sink,
                vmax,
                awake,
                maxpen,
                t0.elapsed().as_secs_f64() * 1e3 / k as f64
            );
        }
    }
}
