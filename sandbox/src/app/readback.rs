//! Reads a window's frame back to the CPU as an RGBA8 image (for F12 and
//! `--screenshot-at-exit`): copies the texture into a buffer with rows
//! padded to wgpu's 256-byte alignment, maps it, strips the padding and
//! swaps BGRA surfaces' channels.

use image::RgbaImage;

/// The texture (8-bit RGBA or BGRA, `COPY_SRC`) as an image, or why not.
///
/// # Errors
/// An unsupported format, or a failed map or poll, as text.
pub fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Result<RgbaImage, String> {
    let format = texture.format().remove_srgb_suffix();
    let bgra = match format {
        wgpu::TextureFormat::Rgba8Unorm => false,
        wgpu::TextureFormat::Bgra8Unorm => true,
        other => return Err(format!("cannot read back a {other:?} frame")),
    };
    if !texture.usage().contains(wgpu::TextureUsages::COPY_SRC) {
        return Err("the surface does not allow reading frames back".to_owned());
    }
    let (width, height) = (texture.width(), texture.height());
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let row = (4 * width).div_ceil(align) * align;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("app.readback"),
        size: u64::from(row) * u64::from(height),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("app.readback") });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
    );
    queue.submit([encoder.finish()]);
    let (sender, receiver) = std::sync::mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let _ = sender.send(result);
    });
    device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| e.to_string())?;
    receiver.recv().map_err(|e| e.to_string())?.map_err(|e| e.to_string())?;
    let mut pixels = Vec::with_capacity(4 * (width * height) as usize);
    {
        let mapped = buffer.get_mapped_range(..).map_err(|e| e.to_string())?;
        for y in 0..height as usize {
            let start = y * row as usize;
            pixels.extend_from_slice(&mapped[start..start + 4 * width as usize]);
        }
    }
    buffer.unmap();
    if bgra {
        for px in pixels.chunks_exact_mut(4) {
            px.swap(0, 2);
        }
    }
    RgbaImage::from_raw(width, height, pixels).ok_or_else(|| "readback size mismatch".to_owned())
}
