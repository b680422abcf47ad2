//! Support-map wrappers that count support calls, so the probe can say what
//! a query cost. They forward everything else (margin, core segment, core
//! box) unchanged, so a query on the wrapped shapes takes exactly the path
//! it takes on the shapes themselves, closed forms included.

use core::cell::Cell;

use collide::SupportMap;
use collide::dim2::SupportMap2;
use collide::nalgebra::{Point2, Point3, Vector2, Vector3};

/// A shape whose support calls are counted.
#[derive(Debug)]
pub struct Counted<'s, S: ?Sized> {
    shape: &'s S,
    calls: Cell<u32>,
}

impl<'s, S: ?Sized> Counted<'s, S> {
    /// Wraps `shape` with a zero count.
    pub fn new(shape: &'s S) -> Self {
        Self { shape, calls: Cell::new(0) }
    }

    /// Support calls so far (full or core).
    pub fn calls(&self) -> u32 {
        self.calls.get()
    }

    fn count(&self) {
        self.calls.set(self.calls.get().saturating_add(1));
    }
}

impl<S: SupportMap + ?Sized> SupportMap for Counted<'_, S> {
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        self.count();
        self.shape.local_support(dir)
    }
    fn margin(&self) -> f32 {
        self.shape.margin()
    }
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        self.count();
        self.shape.local_core_support(dir)
    }
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        self.shape.core_segment()
    }
    fn core_box(&self) -> Option<Vector3<f32>> {
        self.shape.core_box()
    }
}

impl<S: SupportMap2 + ?Sized> SupportMap2 for Counted<'_, S> {
    fn local_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        self.count();
        self.shape.local_support(dir)
    }
    fn margin(&self) -> f32 {
        self.shape.margin()
    }
    fn local_core_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        self.count();
        self.shape.local_core_support(dir)
    }
}
