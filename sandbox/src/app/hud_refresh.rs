//! When the window repaints its HUD, and which pixels the HUD covers.
//!
//! The window paints egui into a [`CachedLayer`](crate::render::CachedLayer)
//! and draws that layer over every frame. Painting egui is the expensive
//! part on a software rasteriser (about 10 ms of CPU per frame at 1280x720
//! on lavapipe), so [`HudRefresh`] repaints it only:
//! - on the first frame, and when the window's size or the HUD's visibility
//!   changes;
//! - when egui has input to react to: a pointer event over the HUD (or
//!   anywhere while egui is dragging, or while the pointer was last over
//!   it), or any event that is not a pointer event (keys, text, focus);
//! - when egui asked for an immediate repaint (an animation or a tooltip);
//! - otherwise every [`HUD_REFRESH_PERIOD`], so the live figures (step
//!   times, FPS, the plot) stay current.
//!
//! Between repaints egui does not run at all: its input waits in
//! egui-winit's queue, and the pointer moving over the 3D view (orbiting,
//! dragging a body) costs no HUD repaint.

use std::time::{Duration, Instant};

/// The longest a visible HUD goes without a repaint: ten per second keeps
/// its figures readable and current.
pub const HUD_REFRESH_PERIOD: Duration = Duration::from_millis(100);

/// How far outside the HUD's painted rectangle, in points, a pointer event
/// still counts as over the HUD: egui widgets react to hover at their edges.
const HOVER_MARGIN: f32 = 4.0;

/// What the window knows before deciding whether to repaint the HUD.
#[derive(Debug, Clone, Copy)]
pub struct HudInputs<'a> {
    /// egui's queued input since the last repaint.
    pub events: &'a [egui::Event],
    /// egui is dragging or has keyboard focus (as of the last repaint).
    pub egui_busy: bool,
    /// The HUD is shown.
    pub visible: bool,
    /// The target's size in pixels.
    pub size: (u32, u32),
}

/// The HUD repaint policy (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct HudRefresh {
    /// When the HUD was last painted, with the visibility and size it was
    /// painted at; `None` before the first paint.
    last: Option<(Instant, bool, (u32, u32))>,
    /// The HUD's painted rectangle in points, as of the last paint.
    content: Option<egui::Rect>,
    /// The pointer was over the HUD when egui last saw it (at the last
    /// paint) ...
    pointer_over: bool,
    /// ... and as of the last [`due`](Self::due)'s scan of the queue.
    scanned_over: bool,
    /// egui asked to be repainted at once.
    asap: bool,
}

impl HudRefresh {
    /// Whether the HUD must be repainted this frame.
    pub fn due(&mut self, now: Instant, inputs: HudInputs<'_>) -> bool {
        // The events stay queued until the next paint, so every scan starts
        // from the pointer as egui last saw it.
        let mut over = self.pointer_over;
        let mut input = false;
        for event in inputs.events {
            let was_over = over;
            let at = match event {
                egui::Event::PointerMoved(p) => Some(*p),
                egui::Event::PointerButton { pos, .. } => Some(*pos),
                _ => None,
            };
            if let Some(p) = at {
                over = self.content.is_some_and(|r| r.expand(HOVER_MARGIN).contains(p));
            }
            input |= match event {
                // Entering, moving over or leaving the HUD.
                egui::Event::PointerMoved(_) | egui::Event::PointerButton { .. } => {
                    was_over || over || inputs.egui_busy
                }
                egui::Event::PointerGone
                | egui::Event::MouseWheel { .. }
                | egui::Event::Zoom(_)
                | egui::Event::Touch { .. } => was_over || inputs.egui_busy,
                _ => true,
            };
        }
        self.scanned_over = over;
        match self.last {
            None => true,
            Some((at, visible, size)) => {
                visible != inputs.visible
                    || size != inputs.size
                    || (inputs.visible
                        && (input
                            || self.asap
                            || now.saturating_duration_since(at) >= HUD_REFRESH_PERIOD))
            }
        }
    }

    /// Records a repaint at `now`: the visibility and target size it was
    /// painted at, the rectangle (in points) the HUD covers, and whether
    /// egui asked to be repainted again at once.
    pub fn painted(
        &mut self,
        now: Instant,
        (visible, size): (bool, (u32, u32)),
        content: Option<egui::Rect>,
        repaint_asap: bool,
    ) {
        self.last = Some((now, visible, size));
        self.content = content;
        self.pointer_over = self.scanned_over;
        self.asap = repaint_asap;
    }
}

/// The rectangle, in points, that egui's tessellated output paints: the
/// union over its meshes of the bounds of the triangles that are not
/// wholly transparent, each clipped to its mesh's clip rectangle. `None`
/// when nothing is painted.
///
/// egui's colours are premultiplied, so a triangle whose three vertex
/// colours are all zero adds nothing anywhere inside it (egui emits such
/// triangles, e.g. a transparent full-screen background), while one
/// non-zero vertex (an anti-aliasing fringe) makes the whole triangle count.
pub fn painted_rect(jobs: &[egui::ClippedPrimitive]) -> Option<egui::Rect> {
    let mut painted = egui::Rect::NOTHING;
    for job in jobs {
        let egui::epaint::Primitive::Mesh(mesh) = &job.primitive else {
            // Callbacks draw inside their clip rectangle.
            painted = painted.union(job.clip_rect);
            continue;
        };
        let mut bounds = egui::Rect::NOTHING;
        for triangle in mesh.indices.chunks_exact(3) {
            let corners = triangle.iter().filter_map(|&i| mesh.vertices.get(i as usize));
            if corners.clone().any(|v| v.color != egui::Color32::TRANSPARENT) {
                for v in corners {
                    bounds.extend_with(v.pos);
                }
            }
        }
        let bounds = bounds.intersect(job.clip_rect);
        if bounds.is_positive() {
            painted = painted.union(bounds);
        }
    }
    painted.is_positive().then_some(painted)
}

/// `rect` (points) as whole pixels `[x, y, width, height]` that contain it,
/// clamped to a `size` target.
pub fn pixel_rect(rect: egui::Rect, pixels_per_point: f32, size: (u32, u32)) -> [u32; 4] {
    let clamp = |v: f32, max: u32| (v.max(0.0) as u32).min(max);
    let x0 = clamp((rect.min.x * pixels_per_point).floor(), size.0);
    let y0 = clamp((rect.min.y * pixels_per_point).floor(), size.1);
    let x1 = clamp((rect.max.x * pixels_per_point).ceil(), size.0);
    let y1 = clamp((rect.max.y * pixels_per_point).ceil(), size.1);
    [x0, y0, x1 - x0, y1 - y0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(events: &[egui::Event]) -> HudInputs<'_> {
        HudInputs { events, egui_busy: false, visible: true, size: (1280, 720) }
    }

    const SHOWN: (bool, (u32, u32)) = (true, (1280, 720));

    fn panel() -> Option<egui::Rect> {
        Some(egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(300.0, 720.0)))
    }

    /// A refresh painted once at `t0` with the panel above.
    fn painted_at(t0: Instant) -> HudRefresh {
        let mut r = HudRefresh::default();
        assert!(r.due(t0, inputs(&[])), "the first frame paints");
        r.painted(t0, SHOWN, panel(), false);
        r
    }

    #[test]
    fn a_still_hud_repaints_once_per_period() {
        let t0 = Instant::now();
        let mut r = painted_at(t0);
        assert!(!r.due(t0 + Duration::from_millis(16), inputs(&[])));
        assert!(!r.due(t0 + HUD_REFRESH_PERIOD - Duration::from_millis(1), inputs(&[])));
        assert!(r.due(t0 + HUD_REFRESH_PERIOD, inputs(&[])));
    }

    #[test]
    fn pointer_motion_over_the_hud_repaints_and_over_the_scene_does_not() {
        let t0 = Instant::now();
        let t = t0 + Duration::from_millis(16);
        let mut r = painted_at(t0);
        let over_scene = [egui::Event::PointerMoved(egui::pos2(800.0, 300.0))];
        assert!(!r.due(t, inputs(&over_scene)), "orbiting the camera must not repaint the HUD");
        let over_hud = [egui::Event::PointerMoved(egui::pos2(150.0, 300.0))];
        assert!(r.due(t, inputs(&over_hud)));
        r.painted(t, SHOWN, panel(), false);
        // Leaving the HUD repaints once (hover highlights go away) ...
        assert!(r.due(t, inputs(&over_scene)));
        r.painted(t, SHOWN, panel(), false);
        assert!(!r.due(t, inputs(&over_scene)));
        // ... and a wheel turned over the scene does not repaint.
        let wheel = [egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, 1.0),
            phase: egui::TouchPhase::Move,
            modifiers: egui::Modifiers::NONE,
            source: egui::MouseWheelSource::Wheel,
        }];
        assert!(!r.due(t, inputs(&wheel)));
        // While egui drags (a slider), motion anywhere repaints.
        let busy = HudInputs { egui_busy: true, ..inputs(&over_scene) };
        assert!(r.due(t, busy));
    }

    #[test]
    fn keys_visibility_size_and_egui_requests_repaint_at_once() {
        let t0 = Instant::now();
        let t = t0 + Duration::from_millis(16);
        let mut r = painted_at(t0);
        assert!(r.due(t, inputs(&[egui::Event::Text("a".into())])));
        assert!(r.due(t, HudInputs { visible: false, ..inputs(&[]) }));
        assert!(r.due(t, HudInputs { size: (640, 480), ..inputs(&[]) }));
        r.painted(t0, SHOWN, panel(), true);
        assert!(r.due(t, inputs(&[])), "egui asked for an immediate repaint");
    }

    #[test]
    fn a_hidden_hud_is_not_repainted_until_shown() {
        let t0 = Instant::now();
        let mut r = HudRefresh::default();
        let hidden = HudInputs { visible: false, ..inputs(&[]) };
        assert!(r.due(t0, hidden));
        r.painted(t0, (false, (1280, 720)), None, false);
        let later = t0 + 10 * HUD_REFRESH_PERIOD;
        assert!(!r.due(later, HudInputs { events: &[egui::Event::Text("a".into())], ..hidden }));
        assert!(r.due(later, inputs(&[])), "shown again");
    }

    #[test]
    fn the_painted_rect_is_the_union_of_clipped_mesh_bounds() {
        let mesh = |min: egui::Pos2, max: egui::Pos2| {
            let mut m = egui::epaint::Mesh::default();
            m.add_colored_rect(egui::Rect::from_min_max(min, max), egui::Color32::WHITE);
            // A transparent rectangle over everything paints nothing.
            m.add_colored_rect(
                egui::Rect::from_min_max(egui::pos2(-1e4, -1e4), egui::pos2(1e4, 1e4)),
                egui::Color32::TRANSPARENT,
            );
            m
        };
        let everywhere = egui::Rect::EVERYTHING;
        let jobs = vec![
            egui::ClippedPrimitive {
                clip_rect: everywhere,
                primitive: egui::epaint::Primitive::Mesh(mesh(
                    egui::pos2(0.0, 0.0),
                    egui::pos2(100.0, 50.0),
                )),
            },
            // Clipped to x < 150, so it reaches 150, not 400.
            egui::ClippedPrimitive {
                clip_rect: egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(150.0, 500.0)),
                primitive: egui::epaint::Primitive::Mesh(mesh(
                    egui::pos2(20.0, 60.0),
                    egui::pos2(400.0, 80.0),
                )),
            },
            // Entirely clipped away: adds nothing.
            egui::ClippedPrimitive {
                clip_rect: egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(10.0, 10.0)),
                primitive: egui::epaint::Primitive::Mesh(mesh(
                    egui::pos2(500.0, 500.0),
                    egui::pos2(600.0, 600.0),
                )),
            },
        ];
        let r = painted_rect(&jobs).expect("painted");
        assert_eq!(r, egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(150.0, 80.0)));
        assert_eq!(painted_rect(&[]), None);
        // Pixels contain the points' rectangle, and stay inside the target.
        assert_eq!(pixel_rect(r, 1.5, (1000, 1000)), [0, 0, 225, 120]);
        let odd = egui::Rect::from_min_max(egui::pos2(0.4, 0.4), egui::pos2(10.2, 2000.0));
        assert_eq!(pixel_rect(odd, 1.0, (1000, 720)), [0, 0, 11, 720]);
    }
}
