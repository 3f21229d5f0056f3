//! ICE restart as WHEP does it (RFC 9725 section 4.3, which WHEP reuses): no new offer, only
//! a PATCH whose `application/trickle-ice-sdpfrag` carries the listener's new `ice-ufrag` and
//! `ice-pwd` (and its candidates), answered by a fragment with the server's new ones. The
//! session's entity tag names its ICE session: a PATCH must match it (`If-Match`) or say `*`.
//!
//! str0m restarts ICE when an offer carries new credentials, so the session re-accepts the
//! listener's first offer with them ([`reoffer`]); the non-ICE parts of the SDP stay as
//! negotiated, as RFC 9725 requires. These are the text helpers; [`super::session`] uses them.

/// The `a=ice-ufrag` and `a=ice-pwd` values of an SDP or SDP fragment (the first of each).
pub fn ice_credentials(sdp: &str) -> Option<(String, String)> {
    let value = |key: &str| {
        sdp.lines()
            .map(str::trim)
            .find_map(|l| l.strip_prefix(key))
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    Some((value("a=ice-ufrag:")?, value("a=ice-pwd:")?))
}

/// `offer` with every ICE credential replaced by `ufrag`/`pwd` and without its candidates
/// (those of the restart come with the fragment).
pub fn reoffer(offer: &str, ufrag: &str, pwd: &str) -> String {
    let mut out = String::with_capacity(offer.len());
    for line in offer.lines().map(|l| l.trim_end_matches('\r')) {
        if line.starts_with("a=ice-ufrag:") {
            out.push_str("a=ice-ufrag:");
            out.push_str(ufrag);
        } else if line.starts_with("a=ice-pwd:") {
            out.push_str("a=ice-pwd:");
            out.push_str(pwd);
        } else if line.starts_with("a=candidate:") || line == "a=end-of-candidates" {
            continue;
        } else {
            out.push_str(line);
        }
        out.push_str("\r\n");
    }
    out
}

/// The fragment answering a restart, from the server's new answer: its credentials, then the
/// first media section's `m=` and `a=mid` lines with the server's candidates (all of them: the
/// server does not trickle) and `a=end-of-candidates`.
pub fn answer_fragment(answer: &str) -> Result<String, String> {
    let (ufrag, pwd) =
        ice_credentials(answer).ok_or("the new answer has no ICE credentials".to_string())?;
    let lines: Vec<&str> = answer.lines().map(|l| l.trim_end_matches('\r')).collect();
    let m = lines
        .iter()
        .position(|l| l.starts_with("m="))
        .ok_or("the new answer has no media section".to_string())?;
    let section = lines[m + 1..].iter().take_while(|l| !l.starts_with("m="));
    let mut out = format!("a=ice-ufrag:{ufrag}\r\na=ice-pwd:{pwd}\r\n{}\r\n", lines[m]);
    for line in section.clone().filter(|l| l.starts_with("a=mid:")) {
        out.push_str(line);
        out.push_str("\r\n");
    }
    for line in section.filter(|l| l.starts_with("a=candidate:")) {
        out.push_str(line);
        out.push_str("\r\n");
    }
    out.push_str("a=end-of-candidates\r\n");
    Ok(out)
}

/// Whether an `If-Match` header value allows a change of the session whose tag is `etag`
/// (unquoted): absent, `*`, or a list naming it (weak or strong).
pub fn if_match_allows(header: Option<&str>, etag: &str) -> bool {
    let Some(header) = header.map(str::trim) else {
        return true;
    };
    header == "*"
        || header.split(',').any(|tag| {
            let tag = tag.trim();
            let tag = tag.strip_prefix("W/").unwrap_or(tag);
            tag.strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .unwrap_or(tag)
                == etag
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OFFER: &str = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n\
        a=group:BUNDLE 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\n\
        a=ice-ufrag:old1\r\na=ice-pwd:oldpassword1234567890ab\r\na=mid:0\r\n\
        a=candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host\r\na=end-of-candidates\r\n\
        a=recvonly\r\na=rtpmap:111 opus/48000/2\r\n";

    #[test]
    fn credentials_are_read_from_an_sdp_or_a_fragment() {
        assert_eq!(
            ice_credentials(OFFER),
            Some(("old1".into(), "oldpassword1234567890ab".into()))
        );
        assert_eq!(ice_credentials("a=ice-ufrag:x\r\n"), None);
        assert_eq!(ice_credentials("a=ice-ufrag:\r\na=ice-pwd:y\r\n"), None);
    }

    #[test]
    fn a_reoffer_carries_the_new_credentials_and_no_old_candidate() {
        let sdp = reoffer(OFFER, "new1", "newpassword");
        assert_eq!(
            ice_credentials(&sdp),
            Some(("new1".into(), "newpassword".into()))
        );
        assert!(
            !sdp.contains("old") && !sdp.contains("a=candidate:"),
            "{sdp}"
        );
        assert!(sdp.contains("a=rtpmap:111 opus/48000/2\r\na=") || sdp.ends_with("/2\r\n"));
        assert_eq!(sdp.lines().count(), OFFER.lines().count() - 2);
    }

    #[test]
    fn the_answer_fragment_has_credentials_media_line_mid_and_candidates() {
        let answer = OFFER.replace("a=recvonly", "a=sendonly");
        let frag = answer_fragment(&answer).unwrap();
        assert_eq!(
            frag,
            "a=ice-ufrag:old1\r\na=ice-pwd:oldpassword1234567890ab\r\n\
             m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:0\r\n\
             a=candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host\r\na=end-of-candidates\r\n"
        );
        assert!(answer_fragment("v=0\r\n").is_err());
    }

    #[test]
    fn if_match_allows_absent_star_and_the_current_tag_only() {
        assert!(if_match_allows(None, "abc"));
        assert!(if_match_allows(Some("*"), "abc"));
        assert!(if_match_allows(Some("\"abc\""), "abc"));
        assert!(if_match_allows(Some("\"x\", W/\"abc\""), "abc"));
        assert!(!if_match_allows(Some("\"abd\""), "abc"));
        assert!(!if_match_allows(Some(""), "abc"));
    }
}
