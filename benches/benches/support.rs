//! Criterion suite `support`: every hull support strategy, over hull sizes
//! 8 to 16384 on spheres and ellipsoids, with random and slowly turning
//! direction streams. Ids are `support/{cloud}-{stream}/{strategy}/{size}`.

use std::hint::black_box;

use benches::{Cloud, HULL_SIZES, STREAM_LEN, cloud, random_directions, turning_directions};
use collide::nalgebra::Vector3;
use collide::{ConvexHull, SupportCache, SupportMap, SupportStrategy};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

/// The strategies benchmarked, with their ids. `warm_started` is hill
/// climbing through a caller-owned [`SupportCache`].
const STRATEGIES: [(&str, Option<SupportStrategy>); 6] = [
    ("brute_force", Some(SupportStrategy::BruteForce)),
    ("simd", Some(SupportStrategy::BruteForceSimd)),
    ("hill_climb", Some(SupportStrategy::HillClimb)),
    ("warm_started", None),
    ("cube_map", Some(SupportStrategy::CubeMap)),
    ("auto", Some(SupportStrategy::Auto)),
];

fn cycle<'d>(dirs: &'d [Vector3<f32>], i: &mut usize) -> &'d Vector3<f32> {
    let d = &dirs[*i & (STREAM_LEN - 1)];
    *i += 1;
    d
}

fn support(c: &mut Criterion) {
    let streams = [("random", random_directions()), ("turning", turning_directions())];
    for kind in [Cloud::Sphere, Cloud::Ellipsoid] {
        let hulls: Vec<ConvexHull> = HULL_SIZES
            .iter()
            .map(|&n| ConvexHull::new(&cloud(kind, n)).expect("a sphere cloud has a hull"))
            .collect();
        for (stream, dirs) in &streams {
            let mut group = c.benchmark_group(format!("support/{}-{stream}", kind.name()));
            for (hull, &n) in hulls.iter().zip(HULL_SIZES.iter()) {
                for (name, strategy) in STRATEGIES {
                    let id = BenchmarkId::new(name, n);
                    let mut i = 0;
                    match strategy {
                        Some(s) => {
                            let h = hull.clone().with_strategy(s);
                            group.bench_function(id, |b| {
                                b.iter(|| {
                                    black_box(h.local_support(black_box(cycle(dirs, &mut i))))
                                })
                            });
                        }
                        None => {
                            let cache = SupportCache::default();
                            let warm = hull.warm_started(&cache);
                            group.bench_function(id, |b| {
                                b.iter(|| {
                                    black_box(warm.local_support(black_box(cycle(dirs, &mut i))))
                                })
                            });
                        }
                    }
                }
            }
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    // 216 benchmarks of a few nanoseconds each: short windows keep the suite
    // to minutes while criterion's own statistics still apply.
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_millis(700))
        .sample_size(30);
    targets = support
}
criterion_main!(benches);
