//! GPU test of the window's HUD path: egui painted into a
//! [`CachedLayer`] and the layer drawn over the scene must give the picture
//! that painting egui straight onto the scene gives (see render/layer.rs).
//!
//! Runs on whatever adapter exists (lavapipe on CI); without one it skips
//! loudly, or fails with `SANDBOX_REQUIRE_GPU=1`.

use image::RgbaImage;

use super::hud_refresh::{painted_rect, pixel_rect};
use super::readback::read_texture;
use crate::render::CachedLayer;
use crate::render::tests::gpu_or_skip;

const SIZE: (u32, u32) = (640, 360);
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// The scene under the HUD: a colour no egui widget uses.
const BACKGROUND: wgpu::Color = wgpu::Color { r: 0.2, g: 0.5, b: 0.8, a: 1.0 };
/// Largest difference allowed per channel, in 8-bit levels: the layer keeps
/// egui's premultiplied colour at 8 bits, so each blend rounds once more
/// than painting onto the scene directly does.
const ROUNDING_LEVELS: u8 = 2;

/// A HUD with opaque and translucent parts: a side panel of widgets, a
/// window (whose shadow is translucent) and a half-transparent red square.
fn hud(ctx: &egui::Context) -> (Vec<egui::ClippedPrimitive>, egui::TexturesDelta) {
    let mut output: Option<egui::FullOutput> = None;
    let mut textures = egui::TexturesDelta::default();
    // The second pass lays out what the first measured; the font atlas
    // comes with the first.
    for _ in 0..2 {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(SIZE.0 as f32, SIZE.1 as f32),
            )),
            ..egui::RawInput::default()
        };
        if let Some(o) = output.take() {
            textures.append(o.textures_delta);
        }
        output = Some(ctx.run_ui(input, |ui| {
            egui::Panel::left("panel").show(ui, |ui| {
                ui.heading("sandbox");
                ui.label("bodies 5051, awake 5050");
                let _ = ui.button("restart");
                ui.checkbox(&mut true, "sleeping");
            });
            egui::Window::new("window")
                .fixed_pos(egui::pos2(200.0, 40.0))
                .fixed_size(egui::vec2(150.0, 40.0))
                .show(ui.ctx(), |ui| {
                    ui.label("translucent shadow");
                });
            ui.painter().rect_filled(
                egui::Rect::from_min_size(egui::pos2(250.0, 180.0), egui::vec2(80.0, 60.0)),
                0.0,
                egui::Color32::from_rgba_unmultiplied(255, 0, 0, 128),
            );
        }));
    }
    let output = output.expect("ran");
    textures.append(output.textures_delta);
    (ctx.tessellate(output.shapes, output.pixels_per_point), textures)
}

fn target(device: &wgpu::Device) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("test.target"),
        size: wgpu::Extent3d { width: SIZE.0, height: SIZE.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// Records a pass over `view` that first loads or clears it, then lets
/// egui paint.
fn egui_pass(
    encoder: &mut wgpu::CommandEncoder,
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
    paint: Option<(&egui_wgpu::Renderer, &[egui::ClippedPrimitive], &egui_wgpu::ScreenDescriptor)>,
) {
    let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("test.pass"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
        })],
        ..wgpu::RenderPassDescriptor::default()
    });
    if let Some((renderer, jobs, screen)) = paint {
        renderer.render(&mut pass.forget_lifetime(), jobs, screen);
    }
}

/// Pixels whose largest channel difference exceeds `levels`.
fn differing(a: &RgbaImage, b: &RgbaImage, levels: u8) -> usize {
    a.pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > levels))
        .count()
}

#[test]
fn the_hud_drawn_through_its_layer_matches_egui_painted_directly() {
    let Some(gpu) = gpu_or_skip("the_hud_drawn_through_its_layer_matches_egui_painted_directly")
    else {
        return;
    };
    let (device, queue) = (&gpu.device, &gpu.queue);
    let ctx = egui::Context::default();
    let (jobs, mut textures) = hud(&ctx);
    let mut renderer =
        egui_wgpu::Renderer::new(device, FORMAT, egui_wgpu::RendererOptions::default());
    let screen =
        egui_wgpu::ScreenDescriptor { size_in_pixels: [SIZE.0, SIZE.1], pixels_per_point: 1.0 };
    for (id, deltas) in &textures.set {
        for delta in deltas {
            renderer.update_texture(device, queue, *id, delta);
        }
    }
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let commands = renderer.update_buffers(device, queue, &mut encoder, &jobs, &screen);

    let (direct, layered, background) = (target(device), target(device), target(device));
    let view = |t: &wgpu::Texture| t.create_view(&wgpu::TextureViewDescriptor::default());
    let paint = Some((&renderer, jobs.as_slice(), &screen));
    // Egui straight onto the scene.
    let clear = wgpu::LoadOp::Clear(BACKGROUND);
    egui_pass(&mut encoder, &view(&direct), clear, None);
    egui_pass(&mut encoder, &view(&direct), wgpu::LoadOp::Load, paint);
    // Egui into the layer, the layer over the scene within what egui painted.
    let mut layer = CachedLayer::new(device, FORMAT);
    assert!(layer.resize(device, SIZE.0, SIZE.1));
    egui_pass(
        &mut encoder,
        layer.view().expect("sized"),
        wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
        paint,
    );
    egui_pass(&mut encoder, &view(&layered), clear, None);
    let rect = pixel_rect(painted_rect(&jobs).expect("the HUD paints"), 1.0, SIZE);
    layer.draw(&mut encoder, &view(&layered), rect);
    egui_pass(&mut encoder, &view(&background), clear, None);
    queue.submit(commands.into_iter().chain([encoder.finish()]));
    textures.clear();

    let read = |t: &wgpu::Texture| read_texture(device, queue, t).expect("read back");
    let (direct, layered, background) = (read(&direct), read(&layered), read(&background));
    let dir = std::env::temp_dir().join("sandbox-render");
    std::fs::create_dir_all(&dir).expect("output dir");
    direct.save(dir.join("hud_direct.png")).expect("save");
    layered.save(dir.join("hud_layered.png")).expect("save");

    // The HUD covers a good part of the picture, translucent parts included.
    let hud_pixels = differing(&direct, &background, 0);
    assert!(hud_pixels > 20_000, "egui painted only {hud_pixels} pixels");
    let red_over_blue = direct.get_pixel(290, 210).0;
    assert!(
        red_over_blue[0] > 100 && red_over_blue[2] > 60,
        "the half-transparent square shows the scene through it: {red_over_blue:?}"
    );
    let off = differing(&direct, &layered, ROUNDING_LEVELS);
    assert_eq!(off, 0, "{off} pixels differ by more than {ROUNDING_LEVELS} levels");
    // The layer leaves the scene alone outside its rectangle.
    let [x, y, w, h] = rect;
    assert!(w < SIZE.0 || h < SIZE.1, "the HUD's rectangle {rect:?} is the whole target");
    for (px, py, p) in layered.enumerate_pixels() {
        if px < x || py < y || px >= x + w || py >= y + h {
            assert_eq!(p, background.get_pixel(px, py), "({px}, {py}) outside the HUD changed");
        }
    }
}
