//! A borrowed shape of one of the crate's own kinds, so that a query can
//! dispatch once per pair of kinds and then run code compiled for that
//! pair.
//!
//! Called with two [`Shape`](crate::Shape)s, a generic query would
//! otherwise be compiled once for "any shape": every support call, and
//! every test of which closed form applies, would go through a `match` on
//! the enum, and on the smallest pairs (two spheres, a sphere and a box)
//! those matches and the code for every other kind around them cost more
//! than the answer. Matching the pair once, up front, and calling the query
//! on the concrete shapes lets the compiler fold each pair's path to what
//! it needs, as a hand-written double dispatch would.

use crate::shape::{Capsule, Cone, ConvexHull, Cuboid, Cylinder, Sphere};

/// One of the crate's shapes, borrowed. See
/// [`SupportMap::as_shape_ref`](crate::SupportMap::as_shape_ref).
#[derive(Clone, Copy, Debug)]
pub enum ShapeRef<'s> {
    /// A ball.
    Sphere(&'s Sphere),
    /// A box.
    Cuboid(&'s Cuboid),
    /// A segment dilated by a radius.
    Capsule(&'s Capsule),
    /// A convex polyhedron.
    ConvexHull(&'s ConvexHull),
    /// A cylinder. Listed so that its pairs run GJK and EPA with its
    /// support inlined, not through the [`Shape`](crate::Shape) enum's
    /// dispatch on every support call: its curved surfaces take GJK the
    /// most iterations of any kind.
    Cylinder(&'s Cylinder),
    /// A cone (listed for the same reason as the cylinder).
    Cone(&'s Cone),
}

/// Runs `$body` with `$x` and `$y` bound to the concrete shapes behind two
/// [`ShapeRef`]s: thirty-six arms, each compiled for its pair of kinds.
macro_rules! with_shape_pair {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {{
        use $crate::shape::ShapeRef;
        macro_rules! with_b {
            ($xa:expr) => {
                match $b {
                    ShapeRef::Sphere($y) => {
                        let $x = $xa;
                        $body
                    }
                    ShapeRef::Cuboid($y) => {
                        let $x = $xa;
                        $body
                    }
                    ShapeRef::Capsule($y) => {
                        let $x = $xa;
                        $body
                    }
                    ShapeRef::ConvexHull($y) => {
                        let $x = $xa;
                        $body
                    }
                    ShapeRef::Cylinder($y) => {
                        let $x = $xa;
                        $body
                    }
                    ShapeRef::Cone($y) => {
                        let $x = $xa;
                        $body
                    }
                }
            };
        }
        match $a {
            ShapeRef::Sphere(s) => with_b!(s),
            ShapeRef::Cuboid(s) => with_b!(s),
            ShapeRef::Capsule(s) => with_b!(s),
            ShapeRef::ConvexHull(s) => with_b!(s),
            ShapeRef::Cylinder(s) => with_b!(s),
            ShapeRef::Cone(s) => with_b!(s),
        }
    }};
}
pub(crate) use with_shape_pair;
