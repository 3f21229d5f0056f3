//! Finding what a stream holds: the container from its first bytes (symphonia's probe, with the
//! search and the headers failing apart: "not audio" is not "truncated"), its audio track, and
//! a decoder for that track's codec (symphonia's, or libopus for Opus).

use crate::error::DecodeError;
use crate::input::STOPPED;
use crate::opus::{OpusHead, OpusStream};
use std::io;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use symphonia::core::audio::SampleBuffer;
use symphonia::core::codecs::{self, CodecParameters, CodecType, DecoderOptions, CODEC_TYPE_NULL};
use symphonia::core::errors::Error;
use symphonia::core::formats::{FormatOptions, FormatReader};
use symphonia::core::io::MediaSourceStream;
use symphonia::core::meta::MetadataOptions;
use symphonia::core::probe::Instantiate;

/// A track's decoder, with symphonia's conversion buffer.
pub(crate) enum Codec {
    Symphonia(Box<dyn codecs::Decoder>, Option<SampleBuffer<f32>>),
    Opus(OpusStream),
}

/// Whether `e` is the input's "decoding stopped".
pub(crate) fn is_stop(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::Other && e.to_string() == STOPPED
}

/// The name of a codec this build cannot decode, for the error.
fn codec_name(t: CodecType) -> String {
    let known = [
        (codecs::CODEC_TYPE_ALAC, "ALAC"),
        (codecs::CODEC_TYPE_EAC3, "AC-3/E-AC-3"),
        (codecs::CODEC_TYPE_AC4, "AC-4"),
        (codecs::CODEC_TYPE_DCA, "DTS"),
        (codecs::CODEC_TYPE_WAVPACK, "WavPack"),
        (codecs::CODEC_TYPE_SPEEX, "Speex"),
        (codecs::CODEC_TYPE_MP1, "MPEG-1 Layer I"),
        (codecs::CODEC_TYPE_MP2, "MPEG-1 Layer II"),
    ];
    match known.iter().find(|(k, _)| *k == t) {
        Some((_, name)) => (*name).to_owned(),
        None => format!("codec id {t}"),
    }
}

/// The first track that holds audio.
pub(crate) fn audio_track(format: &dyn FormatReader) -> Option<(u32, CodecParameters)> {
    format
        .tracks()
        .iter()
        .find(|t| t.codec_params.codec != CODEC_TYPE_NULL)
        .map(|t| (t.id, t.codec_params.clone()))
}

/// Finds the container in the first bytes (skipping ID3 tags) and reads its headers. The
/// probe's search and the headers fail differently: no format found is "not audio", the input
/// ending inside headers is "truncated".
pub(crate) fn probe(
    mut mss: MediaSourceStream,
    read: &AtomicU64,
    hint: Option<&str>,
) -> Result<Box<dyn FormatReader>, DecodeError> {
    let format_options = FormatOptions {
        enable_gapless: true,
        ..Default::default()
    };
    let probe = symphonia::default::get_probe();
    loop {
        let found = probe
            .next(&mut mss)
            .map_err(|e| match (e, read.load(Relaxed)) {
                (Error::IoError(e), _) if is_stop(&e) => DecodeError::Stopped,
                (_, 0) => DecodeError::Empty,
                (_, probed) => DecodeError::NotAudio {
                    probed,
                    hint: hint.map(str::to_owned),
                },
            })?;
        let headers = |e| header_error(e, read.load(Relaxed));
        match found {
            Instantiate::Format(make) => return make(mss, &format_options).map_err(headers),
            Instantiate::Metadata(make) => {
                make(&MetadataOptions::default())
                    .read_all(&mut mss)
                    .map_err(headers)?;
            }
        }
    }
}

/// The error for headers that could not be read, `at` bytes in.
fn header_error(e: Error, at: u64) -> DecodeError {
    match e {
        Error::IoError(e) if is_stop(&e) => DecodeError::Stopped,
        Error::IoError(e) if e.kind() == io::ErrorKind::UnexpectedEof => DecodeError::Truncated {
            at,
            what: "inside the headers".into(),
        },
        Error::Unsupported("isomp4: missing moov atom") => DecodeError::Truncated {
            at,
            what: "before the MP4/M4A index (moov atom)".into(),
        },
        Error::Unsupported(m) => DecodeError::Unsupported(m.to_owned()),
        e => DecodeError::Corrupt(format!("{e} in the headers")),
    }
}

/// The decoder for a track: symphonia's, or libopus for Opus. Errors name the codec.
pub(crate) fn make_codec(params: &CodecParameters) -> Result<(Codec, String), DecodeError> {
    if params.codec == codecs::CODEC_TYPE_OPUS {
        let head = params.extra_data.as_deref().unwrap_or_default();
        let stream = OpusStream::new(OpusHead::parse(head)?)?;
        return Ok((Codec::Opus(stream), "opus".into()));
    }
    let registry = symphonia::default::get_codecs();
    let Some(descriptor) = registry.get_codec(params.codec) else {
        return Err(DecodeError::UnsupportedCodec(codec_name(params.codec)));
    };
    let decoder = registry
        .make(params, &DecoderOptions::default())
        .map_err(|e| DecodeError::UnsupportedCodec(format!("{}: {e}", descriptor.short_name)))?;
    Ok((
        Codec::Symphonia(decoder, None),
        descriptor.short_name.to_owned(),
    ))
}
