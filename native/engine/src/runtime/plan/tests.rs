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

#[test]
fn path_counters_are_kept_per_sink_and_source_across_applies() {
    let mut planner = Planner::new(JitterConfig::default());
    apply(&mut planner, all_to_all(0.0));
    assert_eq!(planner.applied.path_counters.len(), 20);
    let counters = |p: &Planner, sink: &str, source: &str| {
        path_counters::find(&p.applied.path_counters, sink, source).expect("counted")
    };
    let before = counters(&planner, "sink1", "src2");
    before.underruns.fetch_add(3, Relaxed);
    // Source 2 now comes from another address: its paths are built anew, and count on where
    // they were.
    let mut state = all_to_all(0.0);
    for s in &mut state.sinks {
        s.paths.retain(|p| p.source_id != "src4");
        s.paths[2].ip = Some(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 99)));
    }
    let (state, problems) = state.playable();
    let (plan, _, applied) = planner.plan(state, problems);
    let SinkPlan::Keep { paths, .. } = &plan.sinks[1] else {
        panic!("sink 1 is kept");
    };
    let PathPlan::New(rebuilt) = &paths[2] else {
        panic!("the path of source 2 is rebuilt");
    };
    assert!(Arc::ptr_eq(&rebuilt.counters, &before));
    planner.commit(applied);
    assert!(Arc::ptr_eq(&counters(&planner, "sink1", "src2"), &before));
    assert_eq!(before.underruns.load(Relaxed), 3);
    // Paths gone are no longer reported; every other path has counters of its own.
    assert_eq!(planner.applied.path_counters.len(), 16);
    assert!(path_counters::find(&planner.applied.path_counters, "sink0", "src4").is_none());
    let other = counters(&planner, "sink0", "src2");
    assert!(!Arc::ptr_eq(&other, &before));
    assert_eq!(other.underruns.load(Relaxed), 0);
}
