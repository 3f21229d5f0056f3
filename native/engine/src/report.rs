//! What the engine reports, declared once. Each report (a struct of statistics) and each enum
//! in one is written with [`report!`] or [`report_enum!`]: the macro emits the plain Rust type
//! and a description of it ([`Report::INFO`], [`ReportEnum::INFO`]: every field's name, type,
//! JavaScript name, rules and the doc comment). `native/contract` generates everything past
//! the engine from those descriptions: the napi mirror and its conversion
//! (`native/napi/src/engine_reports.rs`), the TypeBox fields the daemon validates and
//! documents `/api/stats` with (`daemon/src/schema/generated/engine-reports.ts`) and so the
//! OpenAPI document and the docs' statistics tables. A counter is one field here plus
//! `npm run contract`; `cargo test -p tributary-contract` fails while a generated file is stale.

/// What a field holds, as JavaScript sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// `u64`: a count, a number of at least 0 in JavaScript.
    Count,
    /// `u32`: a whole number.
    Integer,
    /// `f64`: a number.
    Number,
    /// `String`.
    Text,
    /// `Option<String>`: a string, or null (never absent).
    NullableText,
    /// `Option<f64>`: a number, or null (never absent).
    NullableNumber,
    /// One of an enum's values (a [`report_enum!`]).
    Enum(&'static EnumInfo),
    /// `Vec<T>` of another report, by its Rust name.
    List(&'static str),
}

/// One field of a report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    /// Its name in Rust.
    pub rust: &'static str,
    /// Its name in JavaScript and JSON (the Rust name unless the declaration says `#[js = ..]`).
    pub js: &'static str,
    pub value: Value,
    /// The doc comment, one line each as written (see [`doc_text`]).
    pub doc: &'static str,
    /// The smallest value it takes (`#[minimum = 0]`; counts are at least 0 anyway).
    pub minimum: Option<f64>,
    /// An example value (`#[example = ".."]`).
    pub example: Option<&'static str>,
}

/// A report: a struct of statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReportInfo {
    pub rust: &'static str,
    /// The name of its JavaScript object (`#[js = ..]` on the struct).
    pub js: &'static str,
    pub doc: &'static str,
    pub fields: &'static [Field],
}

/// One value of an enum.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variant {
    pub rust: &'static str,
    /// The string JavaScript and JSON see.
    pub js: &'static str,
    pub doc: &'static str,
}

/// An enum a report carries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EnumInfo {
    pub rust: &'static str,
    /// The name of its JavaScript string enum.
    pub js: &'static str,
    pub doc: &'static str,
    pub variants: &'static [Variant],
}

/// A struct declared with [`report!`].
pub trait Report {
    const INFO: ReportInfo;
}

/// An enum declared with [`report_enum!`].
pub trait ReportEnum {
    const INFO: EnumInfo;
}

/// The Rust types a report's field may have, and what JavaScript sees of each.
pub trait ReportValue {
    const VALUE: Value;
}

impl ReportValue for u64 {
    const VALUE: Value = Value::Count;
}
impl ReportValue for u32 {
    const VALUE: Value = Value::Integer;
}
impl ReportValue for f64 {
    const VALUE: Value = Value::Number;
}
impl ReportValue for String {
    const VALUE: Value = Value::Text;
}
impl ReportValue for Option<String> {
    const VALUE: Value = Value::NullableText;
}
impl ReportValue for Option<f64> {
    const VALUE: Value = Value::NullableNumber;
}
impl<T: Report> ReportValue for Vec<T> {
    const VALUE: Value = Value::List(T::INFO.rust);
}

/// Declares a report: the struct as written (doc comments kept) and its [`Report`] description.
/// Before a field, after its doc comment and in this order, optionally: `#[js = "name"]` (its
/// JavaScript name), `#[minimum = 0.0]`, `#[example = "text"]`. Before the struct, after its
/// doc comment, `#[js = "Name"]` names its JavaScript object (required).
macro_rules! report {
    (
        $(#[doc = $doc:literal])*
        #[js = $js:literal]
        $(#[derive($($derive:path),*)])?
        pub struct $name:ident {
            $(
                $(#[doc = $fdoc:literal])*
                $(#[js = $fjs:literal])?
                $(#[minimum = $min:literal])?
                $(#[example = $example:literal])?
                pub $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        $(#[derive($($derive),*)])?
        pub struct $name {
            $(
                $(#[doc = $fdoc])*
                pub $field: $ty,
            )*
        }

        impl $crate::report::Report for $name {
            const INFO: $crate::report::ReportInfo = $crate::report::ReportInfo {
                rust: stringify!($name),
                js: $js,
                doc: $crate::report::__doc!($($doc)*),
                fields: &[$(
                    $crate::report::Field {
                        rust: stringify!($field),
                        js: $crate::report::__first!($($fjs,)? stringify!($field)),
                        value: <$ty as $crate::report::ReportValue>::VALUE,
                        doc: $crate::report::__doc!($($fdoc)*),
                        minimum: $crate::report::__first!($(Some($min),)? None),
                        example: $crate::report::__first!($(Some($example),)? None),
                    },
                )*],
            };
        }
    };
}

/// Declares an enum a report carries: the enum as written and its [`ReportEnum`] description.
/// Every variant names its JavaScript string with `#[js = "text"]` after its doc comment;
/// `#[js = "Name"]` after the enum's doc comment names its JavaScript string enum.
macro_rules! report_enum {
    (
        $(#[doc = $doc:literal])*
        #[js = $js:literal]
        $(#[derive($($derive:path),*)])?
        pub enum $name:ident {
            $(
                $(#[doc = $vdoc:literal])*
                #[js = $vjs:literal]
                $variant:ident
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        $(#[derive($($derive),*)])?
        pub enum $name {
            $(
                $(#[doc = $vdoc])*
                $variant,
            )*
        }

        impl $name {
            /// The string JavaScript and JSON see.
            pub const fn js(self) -> &'static str {
                match self {
                    $($name::$variant => $vjs,)*
                }
            }
        }

        impl $crate::report::ReportEnum for $name {
            const INFO: $crate::report::EnumInfo = $crate::report::EnumInfo {
                rust: stringify!($name),
                js: $js,
                doc: $crate::report::__doc!($($doc)*),
                variants: &[$(
                    $crate::report::Variant {
                        rust: stringify!($variant),
                        js: $vjs,
                        doc: $crate::report::__doc!($($vdoc)*),
                    },
                )*],
            };
        }

        impl $crate::report::ReportValue for $name {
            const VALUE: $crate::report::Value =
                $crate::report::Value::Enum(&<$name as $crate::report::ReportEnum>::INFO);
        }
    };
}

/// The first of its arguments (an optional one given, else the default after it).
macro_rules! __first {
    ($first:expr $(, $rest:expr)*) => {
        $first
    };
}

/// Doc comment lines as one string, one line each (read with [`doc_text`]).
macro_rules! __doc {
    () => {
        ""
    };
    ($($line:literal)+) => {
        concat!($($line, "\n"),+)
    };
}

// The macros by their paths (`crate::report::report!`), for the engine's own modules.
pub(crate) use {__doc, __first, report, report_enum};

/// A doc string as one paragraph: lines trimmed and joined by spaces, blank lines kept as a
/// paragraph break (`\n\n`).
pub fn doc_text(doc: &str) -> String {
    let mut out = String::new();
    let mut blank = false;
    for line in doc.lines().map(str::trim) {
        if line.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if blank {
            out.push_str("\n\n");
            blank = false;
        } else if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::report::report_enum! {
        /// A colour.
        #[js = "Colour"]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Colour {
            /// Like the sky.
            #[js = "sky-blue"]
            Blue,
            #[js = "red"]
            Red,
        }
    }

    crate::report::report! {
        /// A test report:
        /// two lines.
        #[js = "EngineSample"]
        #[derive(Clone, Debug, PartialEq)]
        pub struct Sample {
            /// Its id.
            #[js = "config_id"]
            pub id: String,
            pub packets: u64,
            /// Milliseconds.
            #[minimum = 0.0]
            #[example = "12.5"]
            pub silence_ms: f64,
            pub colour: Colour,
            pub format: Option<String>,
        }
    }

    #[test]
    fn the_declaration_is_the_struct_and_its_description() {
        let s = Sample {
            id: "a".into(),
            packets: 3,
            silence_ms: 1.5,
            colour: Colour::Blue,
            format: None,
        };
        assert_eq!(s.clone(), s);
        let info = Sample::INFO;
        assert_eq!((info.rust, info.js), ("Sample", "EngineSample"));
        assert_eq!(doc_text(info.doc), "A test report: two lines.");
        let names: Vec<_> = info.fields.iter().map(|f| (f.rust, f.js)).collect();
        assert_eq!(
            names,
            [
                ("id", "config_id"),
                ("packets", "packets"),
                ("silence_ms", "silence_ms"),
                ("colour", "colour"),
                ("format", "format")
            ]
        );
        let f = &info.fields[2];
        assert_eq!(f.value, Value::Number);
        assert_eq!((f.minimum, f.example), (Some(0.0), Some("12.5")));
        assert_eq!(doc_text(f.doc), "Milliseconds.");
        assert_eq!(info.fields[1].doc, "");
        assert_eq!(info.fields[1].value, Value::Count);
        assert_eq!(info.fields[4].value, Value::NullableText);
        let Value::Enum(colour) = info.fields[3].value else {
            panic!("an enum field");
        };
        assert_eq!(colour.js, "Colour");
        let values: Vec<_> = colour.variants.iter().map(|v| v.js).collect();
        assert_eq!(values, ["sky-blue", "red"]);
        assert_eq!((Colour::Blue.js(), Colour::Red.js()), ("sky-blue", "red"));
        assert_eq!(doc_text(colour.variants[0].doc), "Like the sky.");
    }

    #[test]
    fn doc_text_joins_lines_and_keeps_paragraphs() {
        assert_eq!(doc_text(" a\n b\n\n c\n"), "a b\n\nc");
        assert_eq!(doc_text(""), "");
    }
}
