//! The composite shapes of a scene file: `mesh` (vertices and triangles),
//! `heightfield` (rows of heights along x and a cell size, centred on the
//! body) and `compound` (convex parts, each at a pose in the compound).
//! Each is checked value by value, naming the line and column of the first
//! bad one, before collide builds it; what collide still refuses (a
//! triangle whose corners lie on one line) is reported at the value that
//! causes it. The work is linear in the values written (n log n for a
//! mesh's hierarchy), so the file's size bounds it as it bounds the rest.

use collide::Shape;
use collide::composite::{CompositeError, Compound, HeightField, TriMesh};
use collide::nalgebra::{Isometry3, Point3};
use toml::Spanned;

use crate::error::{BodyField, Rule};
use crate::scene::file::error::SceneFileError;
use crate::scene::file::raw::{RawPart, RawShape};
use crate::scene::file::validate::Validator;

impl Validator<'_> {
    /// A shape error at `span`.
    fn shape_error(
        &self,
        at: impl Into<core::ops::Range<usize>>,
        message: String,
    ) -> SceneFileError {
        SceneFileError::Shape { location: self.locator.span(at.into()), message }
    }

    /// `{ type = "mesh", vertices = [[x, y, z], ...], triangles = [[i, j, k], ...] }`.
    pub(super) fn mesh(&self, raw: &Spanned<RawShape>) -> Result<Shape, SceneFileError> {
        let s = raw.get_ref();
        let missing = |key: &str| self.shape_error(raw.span(), format!("a mesh needs `{key}`"));
        let vertices = s.vertices.as_ref().ok_or_else(|| missing("vertices"))?;
        let triangles = s.triangles.as_ref().ok_or_else(|| missing("triangles"))?;
        let mut points = Vec::with_capacity(vertices.get_ref().len());
        for (i, v) in vertices.get_ref().iter().enumerate() {
            points.push(Point3::from(self.vector(v, &format!("mesh vertices[{i}]"))?));
        }
        if triangles.get_ref().is_empty() {
            return Err(
                self.shape_error(triangles.span(), "a mesh needs at least one triangle".into())
            );
        }
        let count = points.len();
        let mut indices = Vec::with_capacity(triangles.get_ref().len());
        for (t, tri) in triangles.get_ref().iter().enumerate() {
            let mut corners = [0u32; 3];
            for (k, index) in tri.get_ref().0.iter().enumerate() {
                let v = *index.get_ref();
                corners[k] = match u32::try_from(v) {
                    Ok(n) if (n as usize) < count => n,
                    _ => {
                        return Err(SceneFileError::OutOfRange {
                            location: self.locator.of(index),
                            what: format!("mesh triangles[{t}][{k}]"),
                            value: v as f64,
                            expected: format!(
                                "a vertex index from 0 to {}",
                                count.saturating_sub(1)
                            ),
                        });
                    }
                };
            }
            indices.push(corners);
        }
        TriMesh::try_new(points, indices).map(Shape::from).map_err(|e| match e {
            CompositeError::DegenerateTriangle { triangle } => self.shape_error(
                triangles.get_ref()[triangle].span(),
                format!("mesh triangle {triangle}'s corners lie on one line, so it has no area"),
            ),
            other => self.shape_error(raw.span(), format!("invalid mesh: {other}")),
        })
    }

    /// `{ type = "heightfield", heights = [[...], ...], cell = [dx, dz] }`:
    /// each inner list a row of heights along x, rows following each other
    /// along z, centred on the body.
    pub(super) fn heightfield(&self, raw: &Spanned<RawShape>) -> Result<Shape, SceneFileError> {
        let s = raw.get_ref();
        let missing =
            |key: &str| self.shape_error(raw.span(), format!("a heightfield needs `{key}`"));
        let heights = s.heights.as_ref().ok_or_else(|| missing("heights"))?;
        let cell = s.cell.as_ref().ok_or_else(|| missing("cell"))?;
        let [dx, dz] = &cell.get_ref().0;
        let dx = self.number_in(dx, "heightfield cell[0]", Rule::Positive)?;
        let dz = self.number_in(dz, "heightfield cell[1]", Rule::Positive)?;
        let rows_raw = heights.get_ref();
        if rows_raw.len() < 2 {
            return Err(self.shape_error(
                heights.span(),
                format!("a heightfield needs at least 2 rows, got {}", rows_raw.len()),
            ));
        }
        let columns = rows_raw[0].get_ref().len();
        let mut rows = Vec::with_capacity(rows_raw.len());
        for (r, row) in rows_raw.iter().enumerate() {
            let len = row.get_ref().len();
            if len < 2 || len != columns {
                return Err(self.shape_error(
                    row.span(),
                    format!(
                        "heightfield row {r} has {len} heights; every row needs the same \
                         number, at least 2 (row 0 has {columns})"
                    ),
                ));
            }
            let mut values = Vec::with_capacity(len);
            for (c, h) in row.get_ref().iter().enumerate() {
                values.push(self.number(h, &format!("heightfield heights[{r}][{c}]"))?);
            }
            rows.push(values);
        }
        HeightField::try_from_rows(&rows, [dx, dz])
            .map(Shape::from)
            .map_err(|e| self.shape_error(raw.span(), format!("invalid heightfield: {e}")))
    }

    /// `{ type = "compound", parts = [{ shape = {...}, position = [...], rotation = {...} }, ...] }`:
    /// convex parts, each at its pose in the compound.
    pub(super) fn compound(&self, raw: &Spanned<RawShape>) -> Result<Shape, SceneFileError> {
        let s = raw.get_ref();
        let parts = s
            .parts
            .as_ref()
            .ok_or_else(|| self.shape_error(raw.span(), "a compound needs `parts`".into()))?;
        if parts.get_ref().is_empty() {
            return Err(self.shape_error(parts.span(), "a compound needs at least one part".into()));
        }
        let mut built = Vec::with_capacity(parts.get_ref().len());
        for part in parts.get_ref() {
            built.push(self.compound_part(part)?);
        }
        Compound::try_new(built).map(Shape::from).map_err(|e| {
            let at = match e {
                CompositeError::NonConvexPart { part } | CompositeError::BadPart { part } => {
                    parts.get_ref()[part].span()
                }
                _ => raw.span(),
            };
            self.shape_error(at, format!("invalid compound: {e}"))
        })
    }

    /// One part of a compound: a convex shape and its pose.
    fn compound_part(
        &self,
        raw: &Spanned<RawPart>,
    ) -> Result<(Shape, Isometry3<f32>), SceneFileError> {
        let p = raw.get_ref();
        let kind = p.shape.get_ref().kind.get_ref();
        if kind.is_composite() {
            return Err(self.shape_error(
                p.shape.get_ref().kind.span(),
                format!("a compound's parts are convex shapes, not a {}", kind.name()),
            ));
        }
        let shape = self.shape(&p.shape)?;
        let mut pose = Isometry3::identity();
        if let Some(position) = &p.position {
            let field = BodyField::ShapePosition;
            pose.translation.vector = self.vector_in(position, "part position", field.rule())?;
        }
        if let Some(rotation) = &p.rotation {
            pose.rotation = self.rotation(rotation)?;
        }
        Ok((shape, pose))
    }
}
