//! 2D polygons and 3D hulls judge the same point clouds the same way (issue
//! 36: a collinear cloud was `Err(Degenerate)` as a 3D hull but `Ok` as a 2D
//! polygon). Each cloud is built once in the plane and given to both
//! constructors (the 3D copy at z = 0, then also tilted out of that plane):
//! too few points, a non-finite coordinate, coincident points and collinear
//! points are errors in both, with matching variants; a cloud that bounds an
//! area is a polygon in 2D and a flat hull in 3D.

use collide::dim2::{Polygon, PolygonError};
use collide::nalgebra::{Point2, Point3, UnitQuaternion, Vector3};
use collide::{ConvexHull, HullError};

/// The verdict both constructors should give, in one vocabulary.
#[derive(Debug, PartialEq)]
enum Verdict {
    Area,
    TooFew(usize),
    NonFinite(usize),
    Coincident,
    Collinear,
}

fn verdict_2d(points: &[Point2<f32>]) -> Verdict {
    match Polygon::new(points) {
        Ok(_) => Verdict::Area,
        Err(PolygonError::TooFewPoints { count }) => Verdict::TooFew(count),
        Err(PolygonError::NonFinitePoint { index }) => Verdict::NonFinite(index),
        Err(PolygonError::Coincident) => Verdict::Coincident,
        Err(PolygonError::Collinear) => Verdict::Collinear,
        Err(other) => panic!("unexpected 2D error {other:?}"),
    }
}

fn verdict_3d(points: &[Point3<f32>]) -> Verdict {
    match ConvexHull::new(points) {
        Ok(_) => Verdict::Area,
        Err(HullError::TooFewPoints { count }) => Verdict::TooFew(count),
        Err(HullError::NonFinitePoint { index }) => Verdict::NonFinite(index),
        Err(HullError::Degenerate { dimension: 0 }) => Verdict::Coincident,
        Err(HullError::Degenerate { dimension: 1 }) => Verdict::Collinear,
        Err(other) => panic!("unexpected 3D error {other:?}"),
    }
}

/// The clouds, each with the verdict it must get.
fn clouds() -> Vec<(String, Vec<Point2<f32>>, Verdict)> {
    let mut out = vec![
        ("empty".into(), vec![], Verdict::TooFew(0)),
        ("one point".into(), vec![Point2::new(1.0, 2.0)], Verdict::TooFew(1)),
        (
            "two points".into(),
            vec![Point2::new(0.0, 0.0), Point2::new(1.0, 0.0)],
            Verdict::TooFew(2),
        ),
        (
            "NaN".into(),
            vec![Point2::new(0.0, 0.0), Point2::new(f32::NAN, 0.0), Point2::new(0.0, 1.0)],
            Verdict::NonFinite(1),
        ),
        ("coincident".into(), vec![Point2::new(3.0, -4.0); 5], Verdict::Coincident),
    ];
    for scale in [1e-3f32, 1.0, 1e3] {
        for (dx, dy) in [(1.0f32, 0.0f32), (0.0, 1.0), (0.6, 0.8), (-0.28, 0.96)] {
            for offset in [0.0f32, 10.0] {
                let origin = Point2::new(offset, -offset) * scale;
                let line: Vec<Point2<f32>> = [0.0f32, 0.25, 1.0, 0.5, 2.0, 1.5]
                    .iter()
                    .map(|&t| origin + nalgebra::Vector2::new(dx, dy) * (t * scale))
                    .collect();
                let name = format!("line ({dx}, {dy}) at scale {scale}, offset {offset}");
                let mut triangle = line.clone();
                triangle.push(origin + nalgebra::Vector2::new(-dy, dx) * scale);
                out.push((name.clone(), line, Verdict::Collinear));
                out.push((format!("{name} plus a point off it"), triangle, Verdict::Area));
            }
        }
    }
    out
}

#[test]
fn polygons_and_hulls_give_the_same_verdict_on_the_same_clouds() {
    let tilt = UnitQuaternion::from_scaled_axis(Vector3::new(0.3, -0.7, 0.2));
    for (name, cloud, want) in clouds() {
        let flat: Vec<Point3<f32>> = cloud.iter().map(|p| Point3::new(p.x, p.y, 0.0)).collect();
        let tilted: Vec<Point3<f32>> = flat.iter().map(|p| tilt * p).collect();
        assert_eq!(verdict_2d(&cloud), want, "2D, {name}");
        assert_eq!(verdict_3d(&flat), want, "3D in the plane z = 0, {name}");
        // A NaN stays a NaN and the others stay what they are when tilted.
        assert_eq!(verdict_3d(&tilted), want, "3D tilted, {name}");
    }
}
