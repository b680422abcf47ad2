//! The events of a step, named for the caller: the stages find them keyed
//! by body slots and shape indices ([`RawEvents`]: pairs the merge dropped
//! while touching, pairs whose touching changed in the narrow phase, in
//! pair order, and sensor pairs likewise), and this turns them into
//! [`ContactEvent`]s and [`SensorEvent`]s with body handles, in that
//! order, adding a hit event after each begin faster than the world's
//! threshold. Every list is sorted by pair or made by a serial pass in
//! pair order, so the events come out the same for any thread count.
//! Removing a body ends its touches and overlaps at once; those events
//! wait in `pending` for the next step's lists (or the current step's,
//! when the step itself removed the body).

use crate::collision::shape_pairs::ShapeKey;
use crate::events::{ContactEvent, SensorEvent, ShapeId};
use crate::world::World;

/// Approach speed above which a begin of touching also reports a
/// [`ContactEvent::Hit`] unless set, m/s (Box2D's default hit threshold:
/// about the speed of a fall from 5 cm, so resting and sliding contacts
/// that flicker never count as hits).
pub const DEFAULT_HIT_EVENT_THRESHOLD: f32 = 1.0;

/// The event lists of a world.
#[derive(Debug)]
pub(crate) struct EventLists {
    /// The last step's contact events.
    pub contacts: Vec<ContactEvent>,
    /// The last step's sensor events.
    pub sensors: Vec<SensorEvent>,
    /// Contact events of removals not yet listed.
    pub pending_contacts: Vec<ContactEvent>,
    /// Sensor events of removals not yet listed.
    pub pending_sensors: Vec<SensorEvent>,
    /// See [`World::hit_event_threshold`].
    pub hit_threshold: f32,
}

impl Default for EventLists {
    fn default() -> Self {
        Self {
            contacts: Vec::new(),
            sensors: Vec::new(),
            pending_contacts: Vec::new(),
            pending_sensors: Vec::new(),
            hit_threshold: DEFAULT_HIT_EVENT_THRESHOLD,
        }
    }
}

impl EventLists {
    /// Empties the lists for a new step, and lists the removals' events
    /// that waited.
    pub fn start_step(&mut self) {
        self.contacts.clear();
        self.sensors.clear();
        self.flush_pending();
    }

    /// Lists the removals' events that waited.
    pub fn flush_pending(&mut self) {
        self.contacts.append(&mut self.pending_contacts);
        self.sensors.append(&mut self.pending_sensors);
    }
}

impl World {
    /// Shape `index` of the body in `slot`, named.
    fn shape_id(&self, slot: u32, index: u16) -> ShapeId {
        ShapeId { body: self.bodies.id(slot as usize), index: u32::from(index) }
    }

    /// The two shapes a key names.
    fn shape_ids(&self, key: ShapeKey) -> (ShapeId, ShapeId) {
        (self.shape_id(key.0, key.2.a), self.shape_id(key.1, key.2.b))
    }

    /// A sensor pair's sensor first, then the shape it senses.
    fn sensor_and_visitor(&self, key: ShapeKey) -> (ShapeId, ShapeId) {
        let (a, b) = self.shape_ids(key);
        let first_a = self.bodies.shape_ranges[key.0 as usize].first as usize;
        if self.bodies.shapes.sensors[first_a + usize::from(key.2.a)] { (a, b) } else { (b, a) }
    }

    /// Names the step's raw events and lists them (see the module docs),
    /// leaving the raw lists empty.
    pub(super) fn collect_events(&mut self) {
        let mut raw = std::mem::take(&mut self.raw_events);
        let mut contacts = std::mem::take(&mut self.events.contacts);
        let mut sensors = std::mem::take(&mut self.events.sensors);
        for &key in &raw.ended {
            let (a, b) = self.shape_ids(key);
            contacts.push(ContactEvent::End { a, b });
        }
        for t in &raw.touches {
            let (a, b) = self.shape_ids(t.key);
            if !t.began {
                contacts.push(ContactEvent::End { a, b });
                continue;
            }
            contacts.push(ContactEvent::Begin { a, b });
            // Written so that NaN is no hit.
            if t.approach_speed > self.events.hit_threshold {
                contacts.push(ContactEvent::Hit {
                    a,
                    b,
                    approach_speed: t.approach_speed,
                    point: t.point,
                    normal: t.normal,
                });
            }
        }
        for &key in &raw.sensor_ended {
            let (sensor, visitor) = self.sensor_and_visitor(key);
            sensors.push(SensorEvent::End { sensor, visitor });
        }
        for &(key, began) in &raw.sensor_changes {
            let (sensor, visitor) = self.sensor_and_visitor(key);
            sensors.push(if began {
                SensorEvent::Begin { sensor, visitor }
            } else {
                SensorEvent::End { sensor, visitor }
            });
        }
        raw.clear();
        self.raw_events = raw;
        self.events.contacts = contacts;
        self.events.sensors = sensors;
    }

    /// Lists, as pending, the end events of the pairs a removal dropped
    /// (left in the raw lists by the pair cache and the sensor pairs).
    pub(super) fn collect_removal_events(&mut self) {
        let mut raw = std::mem::take(&mut self.raw_events);
        for &key in &raw.ended {
            let (a, b) = self.shape_ids(key);
            self.events.pending_contacts.push(ContactEvent::End { a, b });
        }
        for &key in &raw.sensor_ended {
            let (sensor, visitor) = self.sensor_and_visitor(key);
            self.events.pending_sensors.push(SensorEvent::End { sensor, visitor });
        }
        raw.ended.clear();
        raw.sensor_ended.clear();
        self.raw_events = raw;
    }
}
