//! A GPU buffer that grows to fit its data and is never shrunk, so a frame
//! whose count does not grow reuses the allocation.

/// The smallest allocation, in bytes.
const MIN_CAPACITY: u64 = 4096;

/// A vertex (or other) buffer rewritten every frame.
#[derive(Debug)]
pub(crate) struct GrowableBuffer {
    label: &'static str,
    usage: wgpu::BufferUsages,
    buffer: wgpu::Buffer,
}

impl GrowableBuffer {
    pub fn new(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages) -> Self {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        Self { label, usage, buffer: Self::allocate(device, label, usage, MIN_CAPACITY) }
    }

    fn allocate(
        device: &wgpu::Device,
        label: &str,
        usage: wgpu::BufferUsages,
        size: u64,
    ) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        })
    }

    /// Uploads `bytes` (a multiple of 4 long), reallocating to the next
    /// power of two first if they do not fit. Returns whether it did
    /// reallocate, so that bind groups naming the buffer can be rebuilt.
    pub fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, bytes: &[u8]) -> bool {
        let needed = bytes.len() as u64;
        let grow = needed > self.buffer.size();
        if grow {
            let size = needed.next_power_of_two().max(MIN_CAPACITY);
            log::debug!("{}: growing to {size} bytes", self.label);
            self.buffer = Self::allocate(device, self.label, self.usage, size);
        }
        if !bytes.is_empty() {
            queue.write_buffer(&self.buffer, 0, bytes);
        }
        grow
    }

    /// The buffer (valid until the next `write`).
    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    /// The current capacity in bytes.
    #[cfg(test)]
    pub fn capacity(&self) -> u64 {
        self.buffer.size()
    }
}
