//! `tributary-send -h HOST [options]`: what `tributary send` runs (see the crate's README).

use std::process::ExitCode;
use tributary_send::options::{parse, Parsed, USAGE};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(Parsed::Run(o)) => o,
        Ok(Parsed::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("tributary send: {e}");
            return ExitCode::from(2);
        }
    };
    match tributary_send::run::run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tributary send: {e}");
            ExitCode::FAILURE
        }
    }
}
