//! What the window does when its size changes, kept apart from winit and
//! wgpu so it can be tested without a window.
//!
//! A resize to a new non-zero size configures the surface and resizes the
//! renderer's depth and MSAA targets to it (clamped to the device's largest
//! texture). A zero width or height is a minimised window: the surface
//! keeps its last configuration (wgpu refuses a zero-sized one) and nothing
//! is drawn until a non-zero size comes back. A resize to the size already
//! configured does nothing.

/// What to do after a resize.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SurfaceChange {
    /// Configure the surface and resize the renderer to this size.
    Configure {
        /// Width in physical pixels.
        width: u32,
        /// Height in physical pixels.
        height: u32,
    },
    /// Minimised: configure nothing and draw nothing until restored.
    Suspend,
    /// Drawable at the size already configured: nothing to do.
    Unchanged,
}

/// The surface's configured size and whether the window is minimised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceSize {
    /// The size the surface is configured with, once it has been.
    configured: Option<(u32, u32)>,
    minimised: bool,
    /// The device's largest 2D texture side.
    max_dimension: u32,
}

impl SurfaceSize {
    /// A surface not configured yet, on a device whose textures are at most
    /// `max_dimension` pixels on a side.
    pub fn new(max_dimension: u32) -> Self {
        Self { configured: None, minimised: false, max_dimension: max_dimension.max(1) }
    }

    /// The window's inner size is now `width` x `height` physical pixels.
    pub fn resized(&mut self, width: u32, height: u32) -> SurfaceChange {
        if width == 0 || height == 0 {
            self.minimised = true;
            return SurfaceChange::Suspend;
        }
        self.minimised = false;
        let size = (width.min(self.max_dimension), height.min(self.max_dimension));
        if self.configured == Some(size) {
            return SurfaceChange::Unchanged;
        }
        self.configured = Some(size);
        SurfaceChange::Configure { width: size.0, height: size.1 }
    }

    /// The size to draw at, or `None` while minimised or never configured.
    /// Also the size to configure again when the surface is lost or outdated.
    pub fn drawable(&self) -> Option<(u32, u32)> {
        if self.minimised { None } else { self.configured }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_size_configures_and_draws() {
        let mut s = SurfaceSize::new(8192);
        assert_eq!(s.drawable(), None);
        assert_eq!(s.resized(800, 600), SurfaceChange::Configure { width: 800, height: 600 });
        assert_eq!(s.drawable(), Some((800, 600)));
    }

    #[test]
    fn resize_reconfigures_only_on_a_new_size() {
        let mut s = SurfaceSize::new(8192);
        s.resized(800, 600);
        assert_eq!(s.resized(800, 600), SurfaceChange::Unchanged);
        assert_eq!(s.resized(1024, 600), SurfaceChange::Configure { width: 1024, height: 600 });
        assert_eq!(s.drawable(), Some((1024, 600)));
    }

    /// Regression: a minimised window (0 x 0, or one side 0) must neither
    /// configure the surface (wgpu panics on a zero size) nor draw.
    #[test]
    fn minimise_suspends_without_configuring_and_restore_draws_again() {
        for (w, h) in [(0, 0), (0, 600), (800, 0)] {
            let mut s = SurfaceSize::new(8192);
            s.resized(800, 600);
            assert_eq!(s.resized(w, h), SurfaceChange::Suspend);
            assert_eq!(s.drawable(), None, "drew while {w} x {h}");
            // Restored at the old size: the configuration still holds.
            assert_eq!(s.resized(800, 600), SurfaceChange::Unchanged);
            assert_eq!(s.drawable(), Some((800, 600)));
            // Minimised again, restored at another size: configured anew.
            assert_eq!(s.resized(w, h), SurfaceChange::Suspend);
            assert_eq!(s.resized(640, 480), SurfaceChange::Configure { width: 640, height: 480 });
            assert_eq!(s.drawable(), Some((640, 480)));
        }
    }

    #[test]
    fn window_created_minimised_waits_for_a_size() {
        let mut s = SurfaceSize::new(8192);
        assert_eq!(s.resized(0, 0), SurfaceChange::Suspend);
        assert_eq!(s.drawable(), None);
        assert_eq!(s.resized(320, 240), SurfaceChange::Configure { width: 320, height: 240 });
    }

    #[test]
    fn sizes_past_the_device_limit_are_clamped() {
        let mut s = SurfaceSize::new(4096);
        assert_eq!(s.resized(5000, 300), SurfaceChange::Configure { width: 4096, height: 300 });
        assert_eq!(s.resized(6000, 300), SurfaceChange::Unchanged);
        assert_eq!(s.drawable(), Some((4096, 300)));
    }
}
