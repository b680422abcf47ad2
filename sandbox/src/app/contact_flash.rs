//! Contact flashes: when the HUD's "contact flashes" box is ticked, each
//! step's [`ContactEvent::Begin`] events are shown as short-lived markers
//! at the points where the two shapes began to touch, shrinking and
//! fading over [`FLASH_STEPS`] steps. The points are the begun pairs'
//! manifold points right after the step, read through
//! [`World::contacts`]; nothing is collected while the box is unticked.

use std::collections::HashSet;

use collide::nalgebra::Point3;

use crate::body::BodyId;
use crate::events::ContactEvent;
use crate::render::{Color, FrameScene, PointMarker};
use crate::world::World;

/// How many steps a flash stays on screen: a quarter of a second.
pub const FLASH_STEPS: u32 = 15;

/// Most flashes kept at once; past it the oldest go first, so a scene
/// where thousands of contacts begin at once (a pile landing) costs a
/// bounded amount to draw.
const MAX_FLASHES: usize = 4096;

/// The side of a new flash's marker, pixels (it shrinks to a third).
const FLASH_SIZE_PX: f32 = 14.0;

/// One flash: where, and how many steps it has left.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Flash {
    point: Point3<f32>,
    steps_left: u32,
}

/// The flashes on screen, and whether new ones are collected.
#[derive(Clone, Debug, Default)]
pub struct ContactFlashes {
    /// Whether begin events are shown (the HUD's checkbox).
    pub enabled: bool,
    flashes: Vec<Flash>,
    /// Scratch: the begun shape pairs of the last step, both ways round.
    begun: HashSet<(BodyId, u32, BodyId, u32)>,
}

impl ContactFlashes {
    /// Ages the flashes by a step and, when enabled, adds one at each
    /// point of every shape pair that began touching in the step `world`
    /// just took.
    pub fn after_step(&mut self, world: &World) {
        for f in &mut self.flashes {
            f.steps_left = f.steps_left.saturating_sub(1);
        }
        self.flashes.retain(|f| f.steps_left > 0);
        if !self.enabled {
            self.flashes.clear();
            return;
        }
        self.begun.clear();
        for event in world.contact_events() {
            if let ContactEvent::Begin { a, b } = *event {
                self.begun.insert((a.body, a.index, b.body, b.index));
                self.begun.insert((b.body, b.index, a.body, a.index));
            }
        }
        if self.begun.is_empty() {
            return;
        }
        for pair in world.contacts() {
            if self.begun.contains(&(pair.body_a, pair.shape_a, pair.body_b, pair.shape_b)) {
                for p in pair.points() {
                    self.flashes.push(Flash { point: p.point, steps_left: FLASH_STEPS });
                }
            }
        }
        if self.flashes.len() > MAX_FLASHES {
            let excess = self.flashes.len() - MAX_FLASHES;
            self.flashes.drain(..excess);
        }
    }

    /// How many flashes are on screen.
    pub fn len(&self) -> usize {
        self.flashes.len()
    }

    /// Whether no flash is on screen.
    pub fn is_empty(&self) -> bool {
        self.flashes.is_empty()
    }

    /// Draws the flashes as markers, bright and large when new.
    pub fn draw(&self, frame: &mut FrameScene) {
        for f in &self.flashes {
            let life = f.steps_left as f32 / FLASH_STEPS as f32;
            let glow = 0.4 + 0.6 * life;
            frame.points.push(PointMarker {
                position: f.point,
                size_px: FLASH_SIZE_PX * (1.0 + 2.0 * life) / 3.0,
                color: Color::rgb(1.0, glow, 0.3 * glow),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use collide::Cuboid;
    use collide::nalgebra::Vector3;

    use super::*;
    use crate::body::BodyDesc;
    use crate::scene::builtin::add_ground;

    /// A cube dropped on the ground: the step where it lands (the first
    /// with a begin event, found by the events alone) flashes at its
    /// contact points, on the ground's top face under the cube; the
    /// flashes last [`FLASH_STEPS`] steps; nothing flashes when disabled.
    #[test]
    fn a_landing_cube_flashes_where_it_lands_for_a_quarter_second() {
        for enabled in [true, false] {
            let mut world = World::new();
            add_ground(&mut world).unwrap();
            let cube = BodyDesc::dynamic(Cuboid::new(Vector3::repeat(0.5)).into())
                .with_position(Vector3::new(3.0, 1.5, -2.0));
            world.add_body(cube).unwrap();
            let mut flashes = ContactFlashes { enabled, ..Default::default() };
            let mut landed = None;
            for step in 0..120 {
                world.step(1.0 / 60.0);
                flashes.after_step(&world);
                let begun =
                    world.contact_events().iter().any(|e| matches!(e, ContactEvent::Begin { .. }));
                if begun && landed.is_none() {
                    landed = Some(step);
                    if !enabled {
                        assert!(flashes.is_empty());
                        continue;
                    }
                    assert!(flashes.len() >= 3, "{} flashes", flashes.len());
                    for f in &flashes.flashes {
                        assert!(f.point.y.abs() < 0.05, "flash at {:?}", f.point);
                        assert!((f.point.x - 3.0).abs() <= 0.55, "flash at {:?}", f.point);
                        assert!((f.point.z + 2.0).abs() <= 0.55, "flash at {:?}", f.point);
                    }
                }
                if let Some(at) = landed {
                    // No other contact begins while the cube settles.
                    let age = step - at;
                    assert_eq!(flashes.is_empty(), !enabled || age >= FLASH_STEPS, "step {step}");
                }
            }
            assert!(landed.is_some(), "the cube never landed");
        }
    }
}
