//! Conversions between JavaScript values and the native types, with clear errors.

use napi::bindgen_prelude::{
    FromNapiValue, TypedArray, TypedArrayType, Unknown, ValidateNapiValue,
};
use napi::JsValue;
use napi::{Error, Status};
use tributary_dsp::eq::BANDS;
use tributary_dsp::{DspError, StreamFormat};

/// A DSP error as a JavaScript error (`InvalidArg`, the message names the field and rule).
pub fn js_error(e: DspError) -> Error {
    Error::new(Status::InvalidArg, e.to_string())
}

pub fn invalid(msg: impl Into<String>) -> Error {
    Error::new(Status::InvalidArg, msg.into())
}

pub fn stream_format(field: &str, text: &str) -> napi::Result<StreamFormat> {
    text.parse::<StreamFormat>()
        .map_err(|e| invalid(format!("{field}: {e}")))
}

pub fn eq_gains(gains: &[f64]) -> napi::Result<[f32; BANDS]> {
    if gains.len() != BANDS {
        return Err(invalid(format!(
            "eq must have {BANDS} band gains (b1..b18), got {}",
            gains.len()
        )));
    }
    Ok(std::array::from_fn(|i| gains[i] as f32))
}

pub fn finite(field: &str, v: f64) -> napi::Result<f64> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(invalid(format!("{field} must be a finite number, got {v}")))
    }
}

/// A path's settings as `PathPreview` takes them, converted from JavaScript values and checked
/// for what the binding can check (finite numbers, 18 gains); the engine checks the ranges.
/// `None`: not given.
pub struct PathSettings {
    pub volume: Option<f32>,
    pub eq: Option<[f32; BANDS]>,
    pub delay_ms: Option<f64>,
}

impl PathSettings {
    pub fn parse(
        volume: Option<f64>,
        eq: Option<&[f64]>,
        delay_ms: Option<f64>,
    ) -> napi::Result<PathSettings> {
        Ok(PathSettings {
            volume: volume
                .map(|v| finite("volume", v))
                .transpose()?
                .map(|v| v as f32),
            eq: eq.map(eq_gains).transpose()?,
            delay_ms: delay_ms.map(|d| finite("delayMs", d)).transpose()?,
        })
    }
}

/// The bytes behind a Buffer or any integer typed array (its view only).
pub fn bytes<'a>(input: &'a TypedArray<'_>) -> &'a [u8] {
    &input.arraybuffer
}

/// Reads a JavaScript value as PCM bytes: a Buffer or an integer typed array, with a clear
/// error for anything else (strings, plain arrays, float arrays).
pub fn pcm<'env>(field: &str, value: Unknown<'env>) -> napi::Result<TypedArray<'env>> {
    let v = value.value();
    let kind = value
        .get_type()
        .map(|t| format!("{t:?}"))
        .unwrap_or_else(|_| "unknown".into());
    // SAFETY: env and value are the live arguments of the current call.
    let typed = unsafe {
        TypedArray::validate(v.env, v.value).and_then(|_| TypedArray::from_napi_value(v.env, v.value))
    }
    .map_err(|_| {
        invalid(format!(
            "{field} must be a Buffer or an integer TypedArray of PCM bytes, got a value of type {kind}"
        ))
    })?;
    if matches!(
        typed.typed_array_type,
        TypedArrayType::Float32 | TypedArrayType::Float64
    ) {
        return Err(invalid(format!(
            "{field} must hold integer PCM samples (Buffer, Uint8Array, Int16Array, Int32Array...), got a float array"
        )));
    }
    Ok(typed)
}
