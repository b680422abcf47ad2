//! A test hook: keys the window presses by itself after given frames
//! (`sandbox run --press-keys 2:Digit6,3:Tab`), so a test under Xvfb can
//! drive the real window, egui HUD included, without an input tool. A
//! scripted press takes the same route as a key from the keyboard: to egui
//! only while a text field has focus, otherwise to the app.

use std::str::FromStr;

use winit::keyboard::KeyCode;

/// Key presses by frame: after frame `k` (from 1), press the key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptedKeys(pub Vec<(u64, KeyCode)>);

impl ScriptedKeys {
    /// The keys to press after frame `frame`.
    pub fn after(&self, frame: u64) -> impl Iterator<Item = KeyCode> + '_ {
        self.0.iter().filter(move |(k, _)| *k == frame).map(|(_, key)| *key)
    }
}

impl FromStr for ScriptedKeys {
    type Err = String;

    /// `K:KEY[,K:KEY...]`, `KEY` one of winit's key code names that the
    /// app binds (`Digit1`..`Digit6`, `KeyA`..`KeyZ`, `Tab`, `Space`,
    /// `Escape`, `Enter`, `F1`, `F12`, the arrows, `PageUp`, `PageDown`,
    /// `Comma`, `Period`).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut presses = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (frame, name) =
                item.split_once(':').ok_or_else(|| format!("`{item}` is not FRAME:KEY"))?;
            let frame: u64 = frame
                .parse()
                .ok()
                .filter(|&k| k > 0)
                .ok_or_else(|| format!("`{frame}` is not a frame number from 1"))?;
            let key =
                key_code(name).ok_or_else(|| format!("`{name}` is not a key the app binds"))?;
            presses.push((frame, key));
        }
        Ok(Self(presses))
    }
}

/// The key code named `name` (winit's spelling), among the keys the app
/// binds.
fn key_code(name: &str) -> Option<KeyCode> {
    const LETTERS: [KeyCode; 26] = [
        KeyCode::KeyA,
        KeyCode::KeyB,
        KeyCode::KeyC,
        KeyCode::KeyD,
        KeyCode::KeyE,
        KeyCode::KeyF,
        KeyCode::KeyG,
        KeyCode::KeyH,
        KeyCode::KeyI,
        KeyCode::KeyJ,
        KeyCode::KeyK,
        KeyCode::KeyL,
        KeyCode::KeyM,
        KeyCode::KeyN,
        KeyCode::KeyO,
        KeyCode::KeyP,
        KeyCode::KeyQ,
        KeyCode::KeyR,
        KeyCode::KeyS,
        KeyCode::KeyT,
        KeyCode::KeyU,
        KeyCode::KeyV,
        KeyCode::KeyW,
        KeyCode::KeyX,
        KeyCode::KeyY,
        KeyCode::KeyZ,
    ];
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Digit0,
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    let one = |prefix: &str| {
        let rest = name.strip_prefix(prefix)?;
        let mut chars = rest.chars();
        let c = chars.next()?;
        chars.next().is_none().then_some(c)
    };
    if let Some(c) = one("Key").filter(char::is_ascii_uppercase) {
        return Some(LETTERS[(c as u8 - b'A') as usize]);
    }
    if let Some(c) = one("Digit").filter(char::is_ascii_digit) {
        return Some(DIGITS[(c as u8 - b'0') as usize]);
    }
    Some(match name {
        "Tab" => KeyCode::Tab,
        "Space" => KeyCode::Space,
        "Escape" => KeyCode::Escape,
        "Enter" => KeyCode::Enter,
        "F1" => KeyCode::F1,
        "F12" => KeyCode::F12,
        "ArrowLeft" => KeyCode::ArrowLeft,
        "ArrowRight" => KeyCode::ArrowRight,
        "ArrowUp" => KeyCode::ArrowUp,
        "ArrowDown" => KeyCode::ArrowDown,
        "PageUp" => KeyCode::PageUp,
        "PageDown" => KeyCode::PageDown,
        "Comma" => KeyCode::Comma,
        "Period" => KeyCode::Period,
        _ => return None,
    })
}

/// egui's name for `key`, for the keys a script may press that egui acts
/// on when it has keyboard focus (Tab moves it, Space and Enter press the
/// focused button, the arrows move sliders).
pub fn egui_key(key: KeyCode) -> Option<egui::Key> {
    Some(match key {
        KeyCode::Tab => egui::Key::Tab,
        KeyCode::Space => egui::Key::Space,
        KeyCode::Enter => egui::Key::Enter,
        KeyCode::Escape => egui::Key::Escape,
        KeyCode::ArrowLeft => egui::Key::ArrowLeft,
        KeyCode::ArrowRight => egui::Key::ArrowRight,
        KeyCode::ArrowUp => egui::Key::ArrowUp,
        KeyCode::ArrowDown => egui::Key::ArrowDown,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presses_parse_by_frame_and_bad_ones_are_refused() {
        let keys: ScriptedKeys = "2:Digit6, 3:Tab,3:KeyQ,9:F12".parse().unwrap();
        assert_eq!(
            keys.0,
            vec![(2, KeyCode::Digit6), (3, KeyCode::Tab), (3, KeyCode::KeyQ), (9, KeyCode::F12)]
        );
        assert_eq!(keys.after(3).collect::<Vec<_>>(), vec![KeyCode::Tab, KeyCode::KeyQ]);
        for bad in ["Tab", "0:Tab", "x:Tab", "2:Keyq", "2:Digit", "2:Hyper"] {
            assert!(bad.parse::<ScriptedKeys>().is_err(), "{bad} parsed");
        }
    }
}
