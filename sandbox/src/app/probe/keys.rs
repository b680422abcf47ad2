//! The probe's key bindings. In 3D the arrows move B in the ground plane
//! (left/right along X, up/down along -Z/+Z, away from and towards the
//! default camera) and PageUp/PageDown along Y; in 2D the arrows move B in
//! the plane. I/O, K/L and `,`/`.` turn B about X, Y and Z (in 2D all three
//! turn it in the plane). N and B step forward and back through the
//! recorded GJK then EPA iterations, Escape (or Enter) returns to the final
//! state, Space toggles resolve, Tab switches between 3D and 2D, C draws a
//! new random cloud, R (through the app's restart) puts B back.

use collide::nalgebra::Vector3;
use winit::keyboard::KeyCode;

use crate::probe::{Dim, MOVE_STEP, ProbeAction, TURN_STEP};

/// The probe action bound to `key` in `dim`, if any.
pub fn probe_key_action(key: KeyCode, dim: Dim) -> Option<ProbeAction> {
    let s = MOVE_STEP;
    let planar = dim == Dim::Two;
    let turn = |axis, sign: f32| ProbeAction::Turn { axis, angle: sign * TURN_STEP };
    Some(match key {
        KeyCode::ArrowLeft => ProbeAction::Move(Vector3::new(-s, 0.0, 0.0)),
        KeyCode::ArrowRight => ProbeAction::Move(Vector3::new(s, 0.0, 0.0)),
        KeyCode::ArrowUp if planar => ProbeAction::Move(Vector3::new(0.0, s, 0.0)),
        KeyCode::ArrowDown if planar => ProbeAction::Move(Vector3::new(0.0, -s, 0.0)),
        KeyCode::ArrowUp => ProbeAction::Move(Vector3::new(0.0, 0.0, -s)),
        KeyCode::ArrowDown => ProbeAction::Move(Vector3::new(0.0, 0.0, s)),
        KeyCode::PageUp => ProbeAction::Move(Vector3::new(0.0, s, 0.0)),
        KeyCode::PageDown => ProbeAction::Move(Vector3::new(0.0, -s, 0.0)),
        KeyCode::KeyI => turn(0, 1.0),
        KeyCode::KeyO => turn(0, -1.0),
        KeyCode::KeyK => turn(1, 1.0),
        KeyCode::KeyL => turn(1, -1.0),
        KeyCode::Comma => turn(2, 1.0),
        KeyCode::Period => turn(2, -1.0),
        KeyCode::KeyN => ProbeAction::NextStep,
        KeyCode::KeyB => ProbeAction::PreviousStep,
        KeyCode::Escape | KeyCode::Enter => ProbeAction::FinalState,
        KeyCode::Space => ProbeAction::ToggleResolve,
        KeyCode::Tab => ProbeAction::ToggleDim,
        KeyCode::KeyC => ProbeAction::NewCloud,
        _ => return None,
    })
}

/// Whether holding the key down should repeat the action (moves, turns and
/// steps do; toggles do not).
pub fn repeats(action: &ProbeAction) -> bool {
    matches!(
        action,
        ProbeAction::Move(_)
            | ProbeAction::Turn { .. }
            | ProbeAction::NextStep
            | ProbeAction::PreviousStep
    )
}
