//! `summary.json` laid out for reading and diffing: the metadata first, each family, row and
//! baseline on one line.

use serde::Serialize;

use super::Published;

/// One value as single-line JSON. Every type here holds only strings, numbers, bools, enums
/// and vectors: serializing cannot fail.
fn line<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn lines<T: Serialize>(items: &[T]) -> String {
    items.iter().map(line).collect::<Vec<_>>().join(",\n")
}

/// The document as text (ends with a newline).
pub fn json(p: &Published) -> String {
    let mut fields: Vec<String> = Vec::new();
    if let Some(s) = &p.schema {
        fields.push(format!("\"$schema\": {}", line(s)));
    }
    if let Some(id) = &p.id {
        fields.push(format!("\"$id\": {}", line(id)));
    }
    fields.push(format!("\"format\": {}", p.format));
    if let Some(v) = &p.data_version {
        fields.push(format!("\"data_version\": {}", line(v)));
    }
    if let Some(g) = &p.generated_from {
        fields.push(format!("\"generated_from\": {}", line(g)));
    }
    fields.push(format!("\"families\": [\n{}\n]", lines(&p.families)));
    let sections: Vec<String> = p
        .sections
        .iter()
        .map(|sec| {
            format!(
                "{{\"id\": {}, \"title\": {}, \"rows\": [\n{}\n]}}",
                line(&sec.id),
                line(&sec.title),
                lines(&sec.rows)
            )
        })
        .collect();
    fields.push(format!("\"sections\": [\n{}\n]", sections.join(",\n")));
    if let Some(b) = &p.baselines {
        fields.push(format!(
            "\"baselines\": {{\"baselines\": [\n{}\n],\n\"rows\": [\n{}\n]}}",
            lines(&b.baselines),
            lines(&b.rows)
        ));
    }
    format!("{{\n{}\n}}\n", fields.join(",\n"))
}
