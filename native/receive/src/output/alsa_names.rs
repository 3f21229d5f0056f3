//! ALSA device names as users type them and as cpal lists them. cpal 0.16 lists a sound card by
//! its name (`USB Audio Device`, the short name `/proc/asound/cards` shows after the driver) and
//! opens it as `plughw:N`, the card's first device through ALSA's converting plug layer; it
//! opens no other hardware name. People type `hw:1,0` (`aplay -l`'s card and device numbers,
//! what most guides use), `plughw:1`, or the card's id (`hw:CARD=Device,DEV=0`, `hw:Device`).
//! Those are read as the card's name when they mean device 0 of a card present now. The
//! receiver and the sender (`tributary send -i alsa`) look devices up through [`alsa_names`].

/// The names cpal may list the device `name` under, `name` itself first.
pub fn alsa_names(name: &str) -> Vec<String> {
    let cards = std::fs::read_to_string("/proc/asound/cards").unwrap_or_default();
    expand(name, &cards)
}

/// A card of `/proc/asound/cards`: its number, id and name.
struct Card<'a> {
    number: &'a str,
    id: &'a str,
    name: &'a str,
}

/// The cards of a `/proc/asound/cards` text: ` 1 [Device         ]: USB-Audio - USB Audio Device`
/// (each followed by a line of its long name, which does not parse as a card).
fn cards(text: &str) -> impl Iterator<Item = Card<'_>> {
    text.lines().filter_map(|line| {
        let (number, rest) = line.trim_start().split_once(" [")?;
        let (id, rest) = rest.split_once("]: ")?;
        let (_driver, name) = rest.split_once(" - ")?;
        number.parse::<u32>().ok()?;
        Some(Card {
            number,
            id: id.trim(),
            name: name.trim(),
        })
    })
}

/// [`alsa_names`] for the cards listed in `cards_text`.
fn expand(name: &str, cards_text: &str) -> Vec<String> {
    let mut names = vec![name.to_owned()];
    if let Some(card) = card_of(name) {
        if let Some(c) = cards(cards_text).find(|c| c.number == card || c.id == card) {
            names.push(c.name.to_owned());
        }
    }
    names
}

/// The card (number or id) a hardware name means when it means the card's device 0:
/// `hw:1,0`, `hw:1`, `plughw:Device,0`, `hw:CARD=Device,DEV=0`, `plughw:CARD=1`.
fn card_of(name: &str) -> Option<&str> {
    let (plugin, args) = name.split_once(':')?;
    if plugin != "hw" && plugin != "plughw" {
        return None;
    }
    let mut card = None;
    let mut device = "0";
    for (i, arg) in args.split(',').enumerate() {
        let (key, value) = match arg.split_once('=') {
            Some((k, v)) => (k.trim(), v.trim()),
            None => (["CARD", "DEV"].get(i).copied()?, arg.trim()),
        };
        match key {
            "CARD" if card.is_none() => card = Some(value),
            "DEV" => device = value,
            _ => return None,
        }
    }
    let card = card.filter(|c| !c.is_empty())?;
    (device == "0").then_some(card)
}

#[cfg(test)]
mod tests {
    use super::expand;

    /// `/proc/asound/cards` with two cards.
    const CARDS: &str = " 0 [PCH            ]: HDA-Intel - HDA Intel PCH
                      HDA Intel PCH at 0xf7f10000 irq 33
 1 [Device         ]: USB-Audio - USB Audio Device
                      C-Media Electronics Inc. USB Audio Device at usb-0000:00:14.0-2, full speed
";

    #[test]
    fn device_0_of_a_card_by_number_or_id_is_the_card_cpal_lists_by_name() {
        for name in [
            "hw:1,0",
            "hw:1",
            "plughw:1,0",
            "plughw:1",
            "hw:Device,0",
            "hw:CARD=Device,DEV=0",
            "plughw:CARD=1",
            "hw:CARD=Device",
        ] {
            assert_eq!(expand(name, CARDS), [name, "USB Audio Device"], "{name}");
        }
        assert_eq!(expand("hw:0,0", CARDS), ["hw:0,0", "HDA Intel PCH"]);
    }

    #[test]
    fn other_devices_unknown_cards_and_other_names_stay_as_typed() {
        for name in [
            "default",
            "hw:1,1",
            "hw:CARD=Device,DEV=3",
            "hw:7,0",
            "hw:Other",
            "hw:1,0,2",
            "hw:",
            "hw:DEV=0",
            "front:1,0",
            "pulse",
            "USB Audio Device",
        ] {
            assert_eq!(expand(name, CARDS), [name], "{name}");
        }
        assert_eq!(expand("hw:1,0", ""), ["hw:1,0"], "no cards");
    }
}
