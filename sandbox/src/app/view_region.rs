//! The part of the window the scene is seen in: the columns right of the
//! HUD's panel (or the whole window with the HUD hidden). Framing fits what
//! is framed into this region and centres it there, by offsetting the
//! camera's target (3D) or the 2D view's centre sideways, so that nothing
//! framed lies behind the opaque panel. The projection itself stays
//! centred on the window, so picking rays and pixels keep their meaning.

/// The visible region of a window: columns `left..width` of a `width` x
/// `height` pixel image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewRegion {
    /// The window's width, pixels.
    pub width: f32,
    /// The window's height, pixels.
    pub height: f32,
    /// The first column not covered by the HUD, pixels (0 without a HUD).
    pub left: f32,
}

/// The narrowest region framing keeps, as a share of the window's width:
/// a window narrower than the HUD allows is framed as if it had none.
const MIN_FREE_SHARE: f32 = 0.25;

impl ViewRegion {
    /// The whole of a `width` x `height` window.
    pub fn whole(width: f32, height: f32) -> Self {
        Self { width, height, left: 0.0 }
    }

    /// The region right of a panel `left` pixels wide; the whole window when
    /// the panel would leave less than a quarter of it.
    pub fn right_of(width: f32, height: f32, left: f32) -> Self {
        let left = if width - left >= MIN_FREE_SHARE * width { left.max(0.0) } else { 0.0 };
        Self { width, height, left }
    }

    /// The free width, pixels (at least 1).
    pub fn free_width(&self) -> f32 {
        (self.width - self.left).max(1.0)
    }

    /// How far right of the window's centre the region's centre lies,
    /// pixels.
    pub fn center_shift(&self) -> f32 {
        self.left + 0.5 * self.free_width() - 0.5 * self.width
    }

    /// The free width over the height: the aspect the framed content must
    /// fit.
    pub fn free_aspect(&self) -> f32 {
        self.free_width() / self.height.max(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_region_right_of_a_panel_is_centred_on_the_free_columns() {
        let r = ViewRegion::right_of(1280.0, 720.0, 420.0);
        assert_eq!(r.free_width(), 860.0);
        // The free columns' centre, 420 + 430 = 850, is 210 right of 640.
        assert_eq!(r.center_shift(), 210.0);
        assert_eq!(ViewRegion::whole(1280.0, 720.0).center_shift(), 0.0);
        // A panel wider than three quarters of the window is ignored.
        assert_eq!(ViewRegion::right_of(500.0, 400.0, 420.0).left, 0.0);
    }
}
