//! Colours as the caller writes them: sRGB-encoded RGBA in `0..=1`.
//!
//! The shaders decode to linear light before lighting and blending, and the
//! output is encoded again for the target format (the hardware does it for
//! `*Srgb` formats, the shader for the others), so a colour looks the same on
//! every target.

/// An sRGB-encoded colour with straight (not premultiplied) alpha.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Color {
    /// Red, `0..=1`.
    pub r: f32,
    /// Green, `0..=1`.
    pub g: f32,
    /// Blue, `0..=1`.
    pub b: f32,
    /// Alpha (opacity), `0..=1`.
    pub a: f32,
}

impl Color {
    /// A saturated red.
    pub const RED: Self = Self::rgb(0.90, 0.16, 0.14);
    /// A saturated green.
    pub const GREEN: Self = Self::rgb(0.20, 0.75, 0.25);
    /// A saturated blue.
    pub const BLUE: Self = Self::rgb(0.16, 0.42, 0.92);
    /// A warm yellow.
    pub const YELLOW: Self = Self::rgb(0.98, 0.78, 0.15);
    /// An orange.
    pub const ORANGE: Self = Self::rgb(0.98, 0.50, 0.10);
    /// White.
    pub const WHITE: Self = Self::rgb(1.0, 1.0, 1.0);
    /// Black.
    pub const BLACK: Self = Self::rgb(0.0, 0.0, 0.0);

    /// An opaque colour.
    pub const fn rgb(r: f32, g: f32, b: f32) -> Self {
        Self { r, g, b, a: 1.0 }
    }

    /// A colour with alpha.
    pub const fn rgba(r: f32, g: f32, b: f32, a: f32) -> Self {
        Self { r, g, b, a }
    }

    /// The same colour with another alpha.
    pub const fn with_alpha(self, a: f32) -> Self {
        Self { a, ..self }
    }

    /// The channels as an array, for GPU upload.
    pub const fn to_array(self) -> [f32; 4] {
        [self.r, self.g, self.b, self.a]
    }

    /// The colour decoded to linear light (alpha unchanged).
    pub fn to_linear(self) -> [f32; 4] {
        [srgb_to_linear(self.r), srgb_to_linear(self.g), srgb_to_linear(self.b), self.a]
    }
}

/// The sRGB transfer function's inverse (IEC 61966-2-1).
fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}
