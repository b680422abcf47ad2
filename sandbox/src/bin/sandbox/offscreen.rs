//! `sandbox screenshot` and `sandbox record`: a scene rendered offscreen,
//! with physics and rendering timed apart; and the screenshot the `run`
//! fallback saves when there is a GPU adapter but no display.

use anyhow::{Context, Result};
use sandbox::app::{Headless, Simulation};
use sandbox::tools::SceneSource;

use crate::cli::{RecordArgs, SceneName, ScreenshotArgs};
use crate::scene_source::{ShownError, source};

/// Where the fallback saves its picture.
const FALLBACK_SCREENSHOT: &str = "sandbox-headless.png";

fn headless(source: SceneSource, sleep: bool, width: u32, height: u32) -> Result<Headless> {
    let settings = sandbox::StepSettings { sleep_enabled: sleep, ..Default::default() };
    let sim = Simulation::load(source, settings).map_err(|e| ShownError(e.render()))?;
    Headless::new(sim, width, height).context("opening an offscreen renderer")
}

pub fn screenshot(args: &ScreenshotArgs) -> Result<()> {
    let probe = args.scene.scene == Some(SceneName::Probe);
    // The probe draws no bodies; the smallest scene stands behind it.
    let source = if probe {
        SceneSource::Named { scene: sandbox::Scene::Stack, size: 1 }
    } else {
        source(&args.scene, None)?
    };
    let mut h = headless(source, !args.no_sleep, args.width, args.height)?;
    if probe {
        h.controller.open_probe(crate::probe::session(&args.probe)?);
    }
    h.debug.contacts = args.contacts;
    h.debug.joints = args.joints;
    if let Some(yaw) = args.yaw {
        h.controller.camera.yaw = yaw.to_radians();
    }
    if let Some(pitch) = args.pitch {
        h.controller.camera.pitch = pitch.clamp(-85.0, 85.0).to_radians();
    }
    let adapter = h.adapter_name();
    let report = sandbox::app::screenshot(
        &mut h,
        args.steps,
        args.bench_frames,
        args.redraw_shadows,
        &args.out,
    )
    .with_context(|| format!("rendering {}", args.out.display()))?;
    let shadows = if args.redraw_shadows { "redrawn every frame" } else { "reused while still" };
    let mut text = format!(
        "wrote {} ({}x{}, {adapter})\nphysics  {:.3} ms/step over {} steps\nrender   {:.2} ms/frame (median of {}), {} instances in {} mesh draw calls ({} out of view), round ones per level of detail {:?}, shadow map {}\n",
        args.out.display(),
        args.width,
        args.height,
        report.physics_per_step.as_secs_f64() * 1e3,
        report.steps,
        report.render_per_frame.as_secs_f64() * 1e3,
        report.frames,
        report.stats.instances,
        report.stats.mesh_draw_calls,
        report.stats.culled,
        report.stats.lod_instances,
        match report.stats.shadow_map_size {
            0 => "off".to_owned(),
            n => format!("{n}x{n}"),
        },
    );
    if report.frame_interval > std::time::Duration::ZERO {
        text.push_str(&format!(
            "         (the median above is one frame's latency: render, then read back)\nframes   {:.2} ms/frame back to back ({} frames, at most {} in flight, no readback; shadow map {shadows})\n",
            report.frame_interval.as_secs_f64() * 1e3,
            report.frames,
            sandbox::app::FRAMES_IN_FLIGHT,
        ));
    }
    crate::print_stdout(&text)
}

pub fn record(args: &RecordArgs) -> Result<()> {
    let source = source(&args.scene, None)?;
    let mut h = headless(source, true, args.width, args.height)?;
    let report = sandbox::app::record(&mut h, args.seconds, args.fps, &args.out)
        .with_context(|| format!("recording {}", args.out.display()))?;
    crate::print_stdout(&format!(
        "wrote {} ({} frames at {} fps, {}x{})\nphysics  {:.3} ms/step, render {:.2} ms/frame (median)\n",
        args.out.display(),
        report.frames,
        args.fps,
        args.width,
        args.height,
        report.physics_per_step.as_secs_f64() * 1e3,
        report.render_per_frame.as_secs_f64() * 1e3,
    ))
}

/// With an adapter but no display: a picture of the scene after the
/// fallback's run, saved beside the working directory, and said so.
/// Without an adapter either, it says that and does nothing.
pub fn fallback_screenshot(source: &SceneSource, sleep: bool) {
    let out = std::path::Path::new(FALLBACK_SCREENSHOT);
    match headless(source.clone(), sleep, 1280, 720)
        .and_then(|mut h| sandbox::app::screenshot(&mut h, 180, 1, false, out).map_err(Into::into))
    {
        Ok(_) => eprintln!("sandbox: saved a headless screenshot to {}", out.display()),
        Err(e) => eprintln!("sandbox: no headless screenshot either: {e:#}"),
    }
}
