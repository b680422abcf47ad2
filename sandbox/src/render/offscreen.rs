//! The headless path: a GPU without a surface, and a renderer that draws a
//! [`FrameScene`] into a texture and reads it back as an RGBA8 image.
//!
//! Texture-to-buffer copies need rows padded to
//! [`wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`] (256 bytes); the padding is
//! stripped when the image is assembled.

use std::path::Path;

use image::RgbaImage;

use super::{FrameScene, FrameStats, RenderError, Renderer};

/// The default offscreen colour format; its bytes are the PNG's bytes. Not
/// an sRGB format: the shaders write sRGB-encoded values themselves (see
/// `to_target` in common.wgsl), as for the window's surface, which is
/// cheaper on a software rasteriser and draws the same picture as the
/// window.
const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// A wgpu device and queue with no surface.
#[derive(Debug, Clone)]
pub struct Gpu {
    /// The adapter the device came from.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// Requests any adapter (a software one such as lavapipe included) and
    /// a device with default limits, and logs the adapter's name and type.
    /// `WGPU_BACKEND` and the other wgpu environment variables apply.
    ///
    /// Returns [`RenderError::NoAdapter`] when there is none, so a binary
    /// can fall back to headless physics.
    pub fn headless() -> Result<Self, RenderError> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            ..wgpu::RequestAdapterOptions::default()
        }))
        .map_err(RenderError::NoAdapter)?;
        let info = adapter.get_info();
        log::info!("wgpu adapter: {} ({:?}, {:?})", info.name, info.device_type, info.backend);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("render.headless_device"),
            required_features: wgpu::Features::empty(),
            required_limits: wgpu::Limits::default().using_resolution(adapter.limits()),
            ..wgpu::DeviceDescriptor::default()
        }))
        .map_err(RenderError::RequestDevice)?;
        // wgpu's default handler panics; headless users get errors from
        // the scope in `render_to_texture`, and anything else is logged.
        device.on_uncaptured_error(std::sync::Arc::new(|error| {
            log::error!("wgpu: {error}");
        }));
        Ok(Self { adapter, device, queue })
    }

    /// The adapter's name, type and backend.
    pub fn adapter_info(&self) -> wgpu::AdapterInfo {
        self.adapter.get_info()
    }
}

/// A [`Renderer`] drawing into its own texture, read back to the CPU.
#[derive(Debug)]
pub struct OffscreenRenderer {
    gpu: Gpu,
    renderer: Renderer,
    width: u32,
    height: u32,
    format: wgpu::TextureFormat,
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    readback: wgpu::Buffer,
}

/// Bytes per row of the readback buffer: `4 * width` rounded up to the copy alignment.
fn padded_row_bytes(width: u32) -> u32 {
    (4 * width).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT
}

impl OffscreenRenderer {
    /// Opens a headless GPU and an offscreen target of the given size.
    pub fn new(width: u32, height: u32) -> Result<Self, RenderError> {
        Self::with_gpu(Gpu::headless()?, width, height)
    }

    /// An offscreen `Rgba8Unorm` target (the shaders encode sRGB) on an
    /// existing GPU.
    pub fn with_gpu(gpu: Gpu, width: u32, height: u32) -> Result<Self, RenderError> {
        Self::with_format(gpu, width, height, OFFSCREEN_FORMAT)
    }

    /// An offscreen target of a chosen format: `Rgba8UnormSrgb` (hardware
    /// sRGB encoding) or `Rgba8Unorm` (the shaders encode, as for a non-sRGB
    /// surface). Both read back as sRGB-encoded RGBA8.
    pub fn with_format(
        gpu: Gpu,
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
    ) -> Result<Self, RenderError> {
        if format.remove_srgb_suffix() != wgpu::TextureFormat::Rgba8Unorm {
            return Err(RenderError::UnsupportedFormat(format));
        }
        Self::check_size(&gpu, width, height)?;
        let renderer = Renderer::new(&gpu.device, &gpu.queue, format, width, height);
        let (texture, view, readback) = Self::create_target(&gpu, width, height, format);
        Ok(Self { gpu, renderer, width, height, format, texture, view, readback })
    }

    fn check_size(gpu: &Gpu, width: u32, height: u32) -> Result<(), RenderError> {
        let max = gpu.device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(RenderError::InvalidSize { width, height });
        }
        Ok(())
    }

    fn create_target(
        gpu: &Gpu,
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
    ) -> (wgpu::Texture, wgpu::TextureView, wgpu::Buffer) {
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("render.offscreen_target"),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("render.offscreen_target_view"),
            ..wgpu::TextureViewDescriptor::default()
        });
        let readback = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("render.offscreen_readback"),
            size: u64::from(padded_row_bytes(width)) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        (texture, view, readback)
    }

    /// Changes the image size; zero or oversized sizes are an error.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), RenderError> {
        Self::check_size(&self.gpu, width, height)?;
        if (width, height) != (self.width, self.height) {
            (self.texture, self.view, self.readback) =
                Self::create_target(&self.gpu, width, height, self.format);
            self.width = width;
            self.height = height;
            self.renderer.resize(width, height);
        }
        Ok(())
    }

    /// The GPU in use.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The renderer, e.g. to register hull meshes.
    pub fn renderer_mut(&mut self) -> &mut Renderer {
        &mut self.renderer
    }

    /// Renders a frame into the offscreen texture, copies it into the
    /// readback buffer and waits for the GPU. Pair with [`read_image`](Self::read_image);
    /// [`render`](Self::render) does both.
    pub fn render_to_texture(&mut self, frame: &FrameScene) -> Result<FrameStats, RenderError> {
        let scope = self.gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = self.gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("render.offscreen_encoder"),
        });
        let stats = self.renderer.render(&mut encoder, &self.view, frame)?;
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded_row_bytes(self.width)),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 },
        );
        self.gpu.queue.submit([encoder.finish()]);
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(RenderError::Device(error.to_string()));
        }
        self.gpu
            .device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| RenderError::Device(e.to_string()))?;
        Ok(stats)
    }

    /// Renders a frame into the offscreen texture and submits it without a
    /// readback and without waiting: the way a window's frames follow each
    /// other, so that the CPU prepares the next frame while the device
    /// renders this one. Wait with [`wait_for`](Self::wait_for).
    pub fn submit_frame(
        &mut self,
        frame: &FrameScene,
    ) -> Result<(FrameStats, wgpu::SubmissionIndex), RenderError> {
        let scope = self.gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = self.gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("render.offscreen_encoder"),
        });
        let stats = self.renderer.render(&mut encoder, &self.view, frame)?;
        let index = self.gpu.queue.submit([encoder.finish()]);
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(RenderError::Device(error.to_string()));
        }
        Ok((stats, index))
    }

    /// Waits until the device has finished the submission `index`.
    pub fn wait_for(&self, index: wgpu::SubmissionIndex) -> Result<(), RenderError> {
        self.gpu
            .device
            .poll(wgpu::PollType::Wait { submission_index: Some(index), timeout: None })
            .map(|_| ())
            .map_err(|e| RenderError::Device(e.to_string()))
    }

    /// Maps the readback buffer filled by the last
    /// [`render_to_texture`](Self::render_to_texture) and returns the image.
    pub fn read_image(&mut self) -> Result<RgbaImage, RenderError> {
        let (sender, receiver) = std::sync::mpsc::channel();
        self.readback.map_async(wgpu::MapMode::Read, .., move |result| {
            // The receiver outlives the poll below; a failed send only means
            // it is gone, and then nobody waits for the result.
            let _ = sender.send(result);
        });
        self.gpu
            .device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        receiver
            .recv()
            .map_err(|e| RenderError::Readback(e.to_string()))?
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        let row = padded_row_bytes(self.width) as usize;
        let tight = 4 * self.width as usize;
        let mut pixels = Vec::with_capacity(tight * self.height as usize);
        {
            let mapped = self
                .readback
                .get_mapped_range(..)
                .map_err(|e| RenderError::Readback(e.to_string()))?;
            for y in 0..self.height as usize {
                pixels.extend_from_slice(&mapped[y * row..y * row + tight]);
            }
        }
        self.readback.unmap();
        RgbaImage::from_raw(self.width, self.height, pixels)
            .ok_or_else(|| RenderError::Readback("pixel count does not match the size".into()))
    }

    /// Renders a frame and returns it as an image with the frame's stats.
    pub fn render(&mut self, frame: &FrameScene) -> Result<(RgbaImage, FrameStats), RenderError> {
        let stats = self.render_to_texture(frame)?;
        Ok((self.read_image()?, stats))
    }

    /// Writes an image as a PNG file.
    pub fn save_png(image: &RgbaImage, path: impl AsRef<Path>) -> Result<(), RenderError> {
        image
            .save_with_format(path, image::ImageFormat::Png)
            .map_err(|e| RenderError::SaveImage(e.to_string()))
    }
}
