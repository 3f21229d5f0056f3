use super::*;
use crate::desired::SinkProtocol;
use std::net::{IpAddr, Ipv4Addr};
use tributary_dsp::ChannelLayout;

/// What `Control::apply` does with a plan, without an engine thread: plan, and remember it as
/// applied; returns the problems.
fn apply(planner: &mut Planner, state: DesiredState) -> Vec<ConfigError> {
    let (state, problems) = state.playable();
    let (_plan, problems, applied) = planner.plan(state, problems);
    planner.commit(applied);
    problems
}

fn path(source: usize, delay_ms: f64) -> PathSpec {
    PathSpec {
        ip: Some(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 10 + source as u8))),
        delay_ms,
        ..PathSpec::new(&format!("src{source}"))
    }
}

fn sink(id: usize, rate: u32, paths: Vec<PathSpec>) -> SinkSpec {
    SinkSpec {
        paths,
        ..SinkSpec::new(
            &format!("sink{id}"),
            SinkProtocol::Scream,
            rate,
            16,
            ChannelLayout::STEREO,
        )
    }
}

/// Every source on every sink; sink 3 at 44.1 kHz; `delayed` gives source 0 a delay on sink 1.
fn all_to_all(delayed: f64) -> DesiredState {
    DesiredState {
        sinks: (0..4)
            .map(|j| {
                let rate = if j == 3 { 44_100 } else { 48_000 };
                let paths = (0..5)
                    .map(|i| path(i, if (i, j) == (0, 1) { delayed } else { 0.0 }))
                    .collect();
                sink(j, rate, paths)
            })
            .collect(),
    }
}

#[test]
fn paths_of_one_source_rate_and_delay_share_a_tap_and_unused_taps_retire() {
    let mut engine = Planner::new(JitterConfig::default());
    assert!(apply(&mut engine, all_to_all(0.0)).is_empty());
    // 20 paths, 5 sources at two sink rates: 10 readers.
    assert_eq!(engine.applied.tap_keys.len(), 10);
    // A delay on one path: a tap of its own (source 0's undelayed one serves sinks 0, 2).
    apply(&mut engine, all_to_all(250.0));
    assert_eq!(engine.applied.tap_keys.len(), 11);
    assert!(engine
        .applied
        .tap_keys
        .iter()
        .any(|k| k.is("src0", 48_000, 250.0)));
    // A path alone on its tap changes delay: the tap it fades out of is kept for this
    // apply only.
    let alone = |delay_ms| DesiredState {
        sinks: vec![sink(0, 48_000, vec![path(0, delay_ms)])],
    };
    apply(&mut engine, alone(0.0));
    assert_eq!(engine.applied.tap_keys.len(), 1);
    apply(&mut engine, alone(500.0));
    assert_eq!(engine.applied.tap_keys.len(), 2);
    apply(&mut engine, alone(500.0));
    assert_eq!(engine.applied.tap_keys.len(), 1);
    assert!(engine.applied.tap_keys[0].is("src0", 48_000, 500.0));
}
