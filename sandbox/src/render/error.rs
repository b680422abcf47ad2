//! The renderer's error type: every failure a caller can cause or meet.
//!
//! "No adapter" is its own variant so that a binary can fall back to headless
//! physics with one clear line instead of a backtrace.

use std::fmt;

/// Why a render call or the GPU setup failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum RenderError {
    /// No wgpu adapter (GPU or software rasteriser) is available.
    NoAdapter(wgpu::RequestAdapterError),
    /// The adapter refused to create a device.
    RequestDevice(wgpu::RequestDeviceError),
    /// The camera cannot form a projection (non-finite values, eye on the
    /// target, `near <= 0`, `far <= near`, or a zero field of view).
    InvalidCamera(&'static str),
    /// A hull mesh given to [`Renderer::register_hull`](super::Renderer::register_hull)
    /// is unusable.
    InvalidHull(&'static str),
    /// A frame refers to a hull id this renderer never issued.
    UnknownHull(super::HullMeshId),
    /// The target view does not match the renderer's size or format.
    TargetMismatch {
        /// What the renderer was configured for: width, height, format.
        expected: (u32, u32, wgpu::TextureFormat),
        /// What the view has.
        found: (u32, u32, wgpu::TextureFormat),
    },
    /// The size is zero or exceeds the device's texture limit.
    InvalidSize {
        /// The requested width in pixels.
        width: u32,
        /// The requested height in pixels.
        height: u32,
    },
    /// Only 1 and 4 samples per pixel are supported.
    UnsupportedSampleCount(u32),
    /// The offscreen renderer cannot read back this target format.
    UnsupportedFormat(wgpu::TextureFormat),
    /// Mapping the readback buffer failed.
    Readback(String),
    /// Writing an image file failed.
    SaveImage(String),
    /// The device reported a validation or out-of-memory error.
    Device(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoAdapter(e) => write!(f, "no wgpu adapter available: {e}"),
            Self::RequestDevice(e) => write!(f, "the adapter refused to create a device: {e}"),
            Self::InvalidCamera(why) => write!(f, "invalid camera: {why}"),
            Self::InvalidHull(why) => write!(f, "invalid hull mesh: {why}"),
            Self::UnknownHull(id) => write!(f, "unknown hull mesh id {}", id.0),
            Self::TargetMismatch { expected, found } => write!(
                f,
                "target view is {}x{} {:?}, the renderer expects {}x{} {:?} (call resize)",
                found.0, found.1, found.2, expected.0, expected.1, expected.2
            ),
            Self::InvalidSize { width, height } => {
                write!(f, "invalid render size {width}x{height}")
            }
            Self::UnsupportedSampleCount(n) => {
                write!(f, "{n} samples per pixel is not supported (use 1 or 4)")
            }
            Self::UnsupportedFormat(format) => {
                write!(f, "offscreen target format {format:?} is not supported")
            }
            Self::Readback(why) => write!(f, "reading the frame back failed: {why}"),
            Self::SaveImage(why) => write!(f, "saving the image failed: {why}"),
            Self::Device(why) => write!(f, "device error: {why}"),
        }
    }
}

impl std::error::Error for RenderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::NoAdapter(e) => Some(e),
            Self::RequestDevice(e) => Some(e),
            _ => None,
        }
    }
}
