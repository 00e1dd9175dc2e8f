// SPDX-License-Identifier: GPL-2.0-or-later
// The check catalogue: every misconfiguration roceshark reports, declared
// once. A row names the finding kind (`-z roce,triage`), the per-frame
// fields and expert infos that show it in the GUI, the display filter for
// its evidence and the docs that explain it. The glue registers the fields
// and expert infos from it, the triage takes its kind names and filters
// from it, and docs/triage.md's table is generated from it
// (`cmake --build build --target update-docs`). The row order is the ranking
// tie-break: the root cause and the most precise place first.
// DEVELOPERS.md "Adding a check" says what else a new row needs.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>

namespace roceshark::checks {

// A per-frame field: a flag set on the frames that show the check, a
// text saying what they show, or a number they show.
enum class FieldType : uint8_t { flag, text, number };
struct Field {
  std::string_view abbrev;       // "roce.pfc.storm": users' filters name it, never change it
  std::string_view name;         // empty: the field an earlier row declares (rows may share one)
  std::string_view description;
  FieldType type = FieldType::flag;
};

// Wireshark's expert groups and severities, by their PI_ names. The group
// says what kind of problem (docs/triage.md "Expert infos"): sequence for
// what the packet sequence shows (PSN loss, resends, reordering, and PFC
// flow control, as Wireshark files TCP's zero window), protocol for marking
// and configuration that contradict the policy or the standard, assumption
// for what the capture itself puts in doubt (clocks, merged points).
enum class Group : uint8_t { sequence, protocol, checksum, malformed, response_code, assumption };
enum class Level : uint8_t { chat, note, warn, error };
struct Expert {
  std::string_view name;  // "roce.pfc.storm.expert": users' filters name it too
  Group group = Group::sequence;
  std::string_view summary;
};

// What docs/triage.md's table says about a kind. `severity` starts with
// the worst the triage gives it: "error", "warning" or "note".
struct Doc {
  std::string_view severity, from, where, impact;
};

struct Check {
  std::string_view id;              // the finding kind, stable: finding ids start with it
  std::array<Field, 3> fields;      // the first is `{field}`; unused ones have no abbrev
  std::array<Expert, 3> experts;
  // The display filter for the evidence frames, with holes the finding
  // fills: {field} (the first field), {fields} (all of them, ||), {point},
  // {prev_point}, {priority}, {mac}, {nak}, {points} and {streams} (a set:
  // "== 1" or "in {1, 2}"), {loss_signs}, {place} (a whole condition, where
  // one check's findings select by different things: a stream, a router).
  std::string_view filter;
  std::string_view docs;  // the section that explains it: "analysis.md#icrc"
  Doc doc;
  // What to change, in operator terms, for any finding of the kind (a
  // finding's own fix names the place, the MAC, the priority). The catalogue
  // export gives it (checks-table --json: roceshark-mcp's `explain`).
  std::string_view fix;
};

// A row's expert infos take the worst severity the triage gives its kind
// (the first word of doc.severity): the Expert Information dialog and
// -z expert rank as the triage does, from the one place that says it.
constexpr Level expert_level(const Check& c) {
  return c.doc.severity.starts_with("error") ? Level::error : c.doc.severity.starts_with("warning") ? Level::warn
                                                                                                 : Level::note;
}

// A request or response that shows a loss; kept out of a row so two rows
// can use it.
inline constexpr std::string_view kLossSigns =
    "(roce.seq.retransmission || roce.ack.nak == \"PSN sequence error\") && !roce.seq.rnr_retry && "
    "!roce.seq.reorder_nak";

// Fields of the `roce` protocol that filters use to place evidence, which
// no check owns (the glue registers them with the other per-frame fields).
inline constexpr std::string_view kPlaceFields[] = {
    "roce.point", "roce.qp.stream", "roce.role", "roce.priority", "roce.pfc.priority", "roce.hop.prev_point",
    "roce.hop.latency_ns", "roce.seq.rnr_retry",
};

using enum FieldType;
using enum Group;
using enum Level;

inline constexpr Check kCatalogue[] = {
    {"pfc_storm",
     {{{"roce.pfc.storm", "Storm", "This frame belongs to a PFC storm (roce.storm_ms, roce.storm_share_pct)"}}},
     {{{"roce.pfc.storm.expert", sequence, "PFC storm"}}},
     "{field} && roce.point == {point} && eth.src == {mac} && roce.pfc.priority == {priority}",
     "triage.md#kinds",
     {"error", "pause episodes of `roce.storm_ms` or more, paused `roce.storm_share_pct` of them or more",
      "point, pausing MAC, priority", "the row's pause stall"},
     "Find the NIC or switch port with the pausing MAC: a receiver that cannot drain (a stuck or slow host, "
     "PCIe back-pressure, a hung NIC) or a PFC deadlock keeps the priority paused. Check its pause and discard "
     "counters (ethtool -S: rx_prioN_pause, tx_prioN_pause, rx_discards_phy) and enable the PFC watchdog "
     "(storm prevention) on the switch port facing it, so a stuck receiver is cut off instead of pausing the "
     "fabric."},
    {"pfc_propagation",
     {{{"roce.pfc.propagation", "Pause propagation", "This pause follows a storm at another capture point"}}},
     {{{"roce.pfc.propagation.expert", sequence, "Pause propagation"}}},
     "{field} && roce.point == {point} && eth.src == {mac} && roce.pfc.priority == {priority}",
     "triage.md#kinds",
     {"error", "pauses following a storm at another point", "storm point -> pause point, MAC, priority",
      "the row's pause stall"},
     "Fix the storm these pauses follow first (its pfc_storm finding): they are its head-of-line blocking "
     "spreading. Enable the PFC watchdog at the storm's port, and check that the PFC headroom of the ports "
     "between is sized for the cable length."},
    {"vlan_changed",
     {{{"roce.hop.vlan_changed", "VLAN changed",
        "The VLAN tag was stripped, added or given another VLAN id since the previous point"}}},
     {{{"roce.hop.vlan_changed.expert", protocol, "VLAN tag changed between points"}}},
     "{field} && roce.point == {point} && roce.hop.prev_point == {prev_point}",
     "triage.md#kinds",
     {"error when the priority falls into a lossy class, else warning",
      "`roce.hop.vlan_changed`: tag stripped, added or re-tagged", "hop", "recovery (error only)"},
     "Keep RoCE in one VLAN, tagged the same way, end to end: carry the RoCE VLAN tagged on every trunk of the "
     "path (no access or native VLAN on one side only, no VLAN translation), or trust DSCP on every port so "
     "the priority no longer depends on the tag."},
    // Kept for DSCP and PCP rewrites alike (a PCP within one VLAN tag): its
    // finding ids are compared across captures (roce-compare), so the name stays.
    {"dscp_remarked",
     {{{"roce.hop.remarked", "Remarked", "DSCP or PCP differs from the previous point"}}},
     {{{"roce.hop.remarked.expert", protocol, "Remarked between points"}}},
     "{field} && roce.point == {point} && roce.hop.prev_point == {prev_point}",
     "triage.md#kinds",
     {"error into a lossy class, else warning", "`roce.hop.remarked`: DSCP or PCP rewritten", "hop",
      "recovery (error only)"},
     "A device between the two points rewrites the RoCE marking: typically an ingress port not set to trust "
     "DSCP, a QoS or ACL rewrite rule, or QoS maps reset by a firmware upgrade or reboot. Set the ports "
     "between to trust DSCP and remove the rewrite, so RoCE keeps its lossless DSCP end to end."},
    {"ecn_bleached",
     {{{"roce.hop.ecn_bleached", "ECN bleached",
        "ECN-capable (or CE) at the previous point, Not-ECT (or no longer CE) here: a device in between cleared ECN"}}},
     {{{"roce.hop.ecn_bleached.expert", protocol, "ECN cleared between points"}}},
     "{field} && roce.point == {point} && roce.hop.prev_point == {prev_point}",
     "triage.md#decisions",
     {"warning", "`roce.hop.ecn_bleached`: ECN-CE or ECT cleared", "hop", "pause stall"},
     "A device between the two points resets the ECN bits of RoCE: a QoS or ACL policy rewriting the whole "
     "traffic class (not only DSCP), or ECN disabled on a tunnel or router hop. Keep the ECN field end to end, "
     "so DCQCN slows the senders before PFC has to pause them."},
    {"mtu_mismatch",
     {{{"roce.hop.too_big", "Too big for the next hop",
        "Lost after this point, and longer than any frame that crossed the hop: an MTU below this frame (known on "
        "later passes)"},
       {"roce.mtu.icmp_mtu", "ICMP MTU",
        "The MTU a router reports in this ICMP fragmentation-needed / packet-too-big message about RoCE, below the "
        "RoCE packets of the flow it quotes",
        number}}},
     {{{"roce.hop.too_big.expert", protocol, "Lost between points: larger than the hop passes (MTU)"},
       {"roce.mtu.icmp.expert", protocol, "ICMP: a router reports an MTU below the RoCE packets"}}},
     "({fields}) && roce.point {points} && {place}",
     "triage.md#mtu",
     {"error",
      "losses between points, all longer than any frame that crossed the hop (`roce.mtu_min_lost`); ICMP "
      "fragmentation-needed / packet-too-big about RoCE with an MTU below its packets",
      "hop, or the router", "recovery"},
     "Set the interface (IP) MTU of every port of the path to at least the RoCE path MTU plus 84 bytes of "
     "headers (4,200 for a path MTU of 4096, 9,000 or more on a jumbo fabric; 22 bytes more where a switch's "
     "MTU is the whole frame), or lower the QPs' path MTU to one every hop carries. RoCE NICs ignore ICMP "
     "fragmentation-needed messages: a router's report alone fixes nothing."},
    {"lldp_max_frame",
     {{{"roce.lldp.max_frame_exceeded", "Below the RoCE frames",
        "The LLDP maximum frame size is below the longest RoCE frame seen on this link", text}}},
     {{{"roce.lldp.max_frame.expert", protocol, "LLDP: maximum frame size below the RoCE frames here"}}},
     "{field} && eth.src == {mac}",
     "triage.md#mtu",
     {"warning", "LLDP maximum frame size (802.3 TLV) against the longest RoCE frame seen at the point",
      "point, MAC", "-"},
     "Raise the MTU of the port or NIC with that MAC until it takes the longest RoCE frame (a RoCE path MTU of "
     "4096 needs an interface MTU of at least 4,200 bytes), and check every port of the path; or lower the "
     "RoCE path MTU on the hosts. If the port already carries such frames, correct what its LLDP announces."},
    {"hop_loss",
     {{{"roce.hop.lost_after", "Lost after this point",
        "Never seen at the next point within roce.match_window_us (known on later passes)"}}},
     {{{"roce.hop.lost_after.expert", sequence, "Lost between points"}}},
     "{field} && roce.point == {point}",
     "triage.md#kinds",
     {"error", "losses between points (the engine)", "hop", "recovery"},
     "A device between the two points drops RoCE: read its drop counters for the RoCE queue. Buffer or WRED "
     "drops in the RoCE class mean PFC is off (or its headroom too small) on that queue; CRC or symbol errors "
     "mean a bad link or optic."},
    {"icrc_bad",
     {{{"roce.icrc_bad", "ICRC bad", "The invariant CRC does not match: corrupted on a link"}}},
     {{{"roce.icrc_bad.expert", checksum, "Bad ICRC"}}},
     "{field} && roce.point == {point}",
     "analysis.md#icrc",
     {"error", "bad ICRCs", "point", "recovery"},
     "The packets are damaged before the capture point: check the links and optics upstream (FEC, CRC and "
     "symbol error counters; reseat or replace the cable or transceiver). A device that rewrites invariant "
     "header fields breaks the ICRC too."},
    {"lossy_queue",
     {{{"roce.pfc.lossy_queue", "Lossy queue", "RoCE loss on a priority no PFC frame was seen for"}}},
     {{{"roce.pfc.lossy_queue.expert", protocol, "RoCE lost on a priority no PFC frame pauses"}}},
     "roce.point {points} && roce.priority == {priority} && ({loss_signs})",
     "triage.md#decisions",
     {"error",
      "loss signs on a priority no PFC frame was seen for (`roce.pfc.lossy_queue` and the signs after it)",
      "priority, points, hop if matched", "recovery"},
     "Give RoCE a lossless class end to end: enable PFC on its priority on every switch port and NIC of the "
     "path (NIC: mlnx_qos -i <if> --pfc; the switch: PFC on that priority on each port), or mark RoCE into the "
     "priority that has PFC; check whether a firmware upgrade or reboot reset the switch QoS maps."},
    {"dscp_not_lossless",
     {{{"roce.qos.dscp_not_lossless", "DSCP not lossless", "RoCE whose priority under the trust mode is not lossless"}}},
     {{{"roce.qos.dscp_not_lossless.expert", protocol, "RoCE marked into a priority the policy does not make lossless"}}},
     "{field} && roce.point {points}",
     "triage.md#kinds",
     {"error", "QoS check", "points, DSCP, priority", "recovery"},
     "Mark RoCE at the senders with a DSCP whose priority is lossless (the NIC's RoCE traffic class, e.g. "
     "rdma_cm ToS 106 = DSCP 26 with ECT(0)), or map the DSCP seen to a lossless priority with PFC on every "
     "switch port of the path. If the senders mark correctly and a hop rewrites it, fix that rewrite "
     "(dscp_remarked, vlan_changed) instead."},
    {"pcp_mismatch",
     {{{"roce.qos.pcp_mismatch", "PCP mismatch", "Tagged RoCE whose PCP disagrees with the priority its DSCP maps to"}}},
     {{{"roce.qos.pcp_mismatch.expert", protocol, "PCP and DSCP disagree"}}},
     "{field} && roce.point {points}",
     "triage.md#kinds",
     {"warning", "QoS check", "points", "recovery"},
     "Make the senders tag RoCE with the PCP its DSCP maps to (the NIC's VLAN egress priority for the RoCE "
     "traffic class), or set every switch port of the path to the same trust mode. If a hop rewrites the tag, "
     "fix that rewrite instead."},
    {"inconsistent_marking",
     {{{"roce.qos.inconsistent_marking", "Inconsistent marking", "A QP seen with more than one DSCP, PCP or VLAN id at this point"}}},
     {{{"roce.qos.inconsistent_marking.expert", protocol, "Inconsistent marking"}}},
     "{field} && roce.point {points}",
     "triage.md#kinds",
     {"warning", "QoS check", "points", "recovery"},
     "Compare the senders' NIC QoS settings (trust mode, RoCE ToS) and the switch QoS policies with their "
     "intended values: a reboot, driver reload or firmware change can reset them. A QP seen in several VLANs "
     "at one point came through differently configured ports (members of one LAG or MLAG bundle, or two ECMP "
     "paths): give them the same VLAN configuration."},
    {"pfc_wrong_class",
     {{{"roce.pfc.wrong_class", "PFC on the wrong class",
        "PFC on a priority with no RoCE while RoCE runs on a priority without PFC"}}},
     {{{"roce.pfc.wrong_class.expert", protocol, "PFC on the wrong class"}}},
     "{field} && roce.point == {point} && eth.src == {mac} && roce.pfc.priority == {priority}",
     "triage.md#kinds",
     {"warning", "PFC on a class without RoCE while RoCE's has none", "point, MAC, priority", "-"},
     "Enable PFC on the priority RoCE uses (the policy's lossless priorities) on both ends of the link, and "
     "disable it on the paused priority unless another lossless class needs it; or fix the DSCP-to-priority "
     "map so RoCE lands in the PFC class."},
    {"ecn_threshold_mismatch",
     {{{"roce.hop.ecn_unmarked", "Unmarked beyond another hop's ECN onset",
        "ECN-capable, queued on this hop beyond another hop's marking onset of the same priority plus "
        "roce.ecn_onset_tolerance_us, and not marked: this hop's ECN threshold is higher"}}},
     {{{"roce.hop.ecn_unmarked.expert", protocol, "ECN marking threshold differs between hops"}}},
     "{field} && roce.point == {point} && roce.hop.prev_point == {prev_point} && roce.priority == {priority}",
     "multipoint.md#ecn-marking-thresholds",
     {"warning",
      "ECN marking onsets per hop and priority (`-z roce,hops`): a hop marking later than another by more than "
      "`roce.ecn_onset_tolerance_us`, or never while it queues that far beyond the other's onset",
      "hop, priority, the hop it differs from", "pause stall"},
     "Give this hop's queue of the priority the WRED/ECN thresholds of the hop it differs from (its ECN min "
     "threshold, Kmin, near the other's marking onset), with ECN marking enabled on that queue, so DCQCN slows "
     "the senders before the queue reaches PFC XOFF."},
    {"cnp_queued",
     {{{"roce.hop.cnp_queued", "CNP queued like data",
        "A CNP that waited on this hop at least half as long as the RoCE data that queued 10 us or more there just "
        "before it: CNPs share the data's queue instead of a strict-priority class of their own"}}},
     {{{"roce.hop.cnp_queued.expert", protocol, "CNP queued behind RoCE data between points"}}},
     "{field} && roce.point == {point} && roce.hop.prev_point == {prev_point}",
     "multipoint.md#cnps-queued-like-data",
     {"warning",
      "CNPs that wait on a hop about as long as the RoCE data queued there just before them (`roce.hop.cnp_queued`)",
      "hop", "pause stall"},
     "Give CNPs a strict-priority class of their own on the hop's egress port and every port of the path: "
     "classify the CNP DSCP (48 by default on mlx5) into its own priority and traffic class, strict priority "
     "in ETS, not a weighted share with RoCE data."},
    {"starved_by_besteffort",
     {{{"roce.hop.be_starved", "Waited while best-effort took the port",
        "RoCE that queued on this hop while best-effort traffic took more than roce.besteffort_share_pct of the "
        "bytes leaving it, with the link full and best-effort barely queued: the port serves best-effort first"}}},
     {{{"roce.hop.be_starved.expert", protocol, "RoCE starved behind best-effort traffic between points"}}},
     "{field} && roce.point == {point} && roce.hop.prev_point == {prev_point}",
     "multipoint.md#roce-starved-by-best-effort",
     {"warning",
      "RoCE packets that queue on a hop while best-effort traffic, matched across the same points, takes more than "
      "`roce.besteffort_share_pct` of the full link and barely queues (`roce.hop.be_starved`; 5 packets or more)",
      "hop", "pause stall"},
     "On the hop's egress port and every port of the path, take best-effort out of strict priority and give "
     "RoCE's traffic class an ETS share that covers its load (mlnx_qos --tcbw, or the switch's ETS/DWRR queue "
     "weights); check that the RoCE DSCP maps to that class's queue."},
    {"pfc_chatter",
     {{{"roce.pfc.chatter", "Pause chatter",
        "Pauses on and off for roce.storm_ms, the class paused less than roce.storm_share_pct of it"}}},
     {{{"roce.pfc.chatter.expert", sequence, "PFC pause chatter"}}},
     "{field} && roce.point == {point} && eth.src == {mac} && roce.pfc.priority == {priority}",
     "pfc.md#storms-and-chatter",
     {"warning", "pause episodes of `roce.storm_ms` or more, paused less than `roce.storm_share_pct` of them",
      "point, pausing MAC, priority", "the row's pause stall"},
     "Find the NIC or switch port with the pausing MAC: it runs short of receive buffer again and again "
     "(a host that drains in bursts, a PFC XOFF threshold set too low, or too little headroom for the cable). "
     "Check its pause counters (ethtool -S: rx_prioN_pause, tx_prioN_pause), raise its XOFF threshold or "
     "buffer, and make ECN mark before XOFF so DCQCN slows the senders first."},
    {"ecn_above_xoff",
     {{{"roce.pfc.no_ecn", "No ECN before pause",
        "The pause started with no ECN-CE mark or CNP on this link before it (roce.ecn_window_us)"}}},
     {{{"roce.pfc.no_ecn.expert", sequence, "Pause with no ECN marking before it"}}},
     "{field} && roce.point == {point} && eth.src == {mac} && roce.pfc.priority == {priority}",
     "triage.md#kinds",
     {"warning", "pauses with no ECN-CE or CNP before them (`roce.pfc.no_ecn`)", "point, MAC, priority",
      "the row's pause stall"},
     "Lower the ECN marking threshold (WRED/ECN min threshold, DCQCN Kmin) of the paused priority's queue on "
     "the switch port towards the pausing MAC below that queue's PFC XOFF threshold, so DCQCN slows the "
     "senders before PFC has to pause the link; check that ECN marking is enabled on that queue and DCQCN on "
     "the NICs."},
    {"ce_without_cnp",
     {{{"roce.cnp.missing", "CNP missing",
        "The receiver acknowledges this QP's first ECN-CE marked request (5 us or more before) and has sent no CNP "
        "for it: its DCQCN notification point is off"}}},
     {{{"roce.cnp.missing.expert", protocol, "No CNP for ECN-CE marks: notification point off"}}},
     "roce.qp.stream {streams} && roce.point {points} && ({field} || (roce.role == \"request\" && "
     "(ip.dsfield.ecn == 3 || ipv6.tclass.ecn == 3)))",
     "triage.md#decisions",
     {"warning", "a response acknowledging its QP's first CE-marked request, no CNP before (`roce.cnp.missing`)",
      "receiver, points, streams", "pause stall"},
     "Enable the DCQCN notification point on the receiver's NIC for the RoCE priority (mlx5: "
     "/sys/class/net/<if>/ecn/roce_np/enable/<prio> = 1), so it answers ECN-CE with CNPs; if it answers its "
     "other QPs, check that these QPs are on a port or function with it on and that their CNPs are not dropped "
     "before the capture point."},
    {"ecn_not_capable",
     {{{"roce.qos.ecn_not_capable", "ECN not capable", "RoCE data that is not ECN-capable while the policy expects ECN"}}},
     {{{"roce.qos.ecn_not_capable.expert", protocol, "RoCE data not ECN-capable"}}},
     "{field} && roce.point {points}",
     "triage.md#kinds",
     {"warning", "QoS check", "points", "pause stall"},
     "Enable ECN and DCQCN on the sending NICs (the RoCE ToS must carry ECT(0), e.g. ToS 106; mlx5: "
     "/sys/class/net/<if>/ecn/roce_rp/enable/<prio> = 1), and check that no device on the way clears the ECN "
     "bits."},
    {"cnp_class",
     {{{"roce.qos.cnp_class", "CNP class", "CNP not in the CNP class (roce.cnp_dscp, roce.cnp_priority)"}}},
     {{{"roce.qos.cnp_class.expert", protocol, "CNP in the wrong class"}}},
     "{field} && roce.point {points}",
     "triage.md#kinds",
     {"warning", "QoS check", "points", "-"},
     "Set the receivers' CNP marking to the policy's CNP DSCP and priority (roce.cnp_dscp, roce.cnp_priority; "
     "mlx5: /sys/class/net/<if>/ecn/roce_np/cnp_dscp and cnp_802p_prio) and give that class strict priority on "
     "the switches."},
    {"timeout_retransmission",
     {{{"roce.seq.timeout_retransmission", "Timeout retransmission",
        "Resent with no NAK before it, after a quiet period (roce.timeout_us)"}}},
     {{{"roce.seq.timeout_retransmission.expert", sequence, "Timeout retransmission"}}},
     "{field} && roce.qp.stream {streams}",
     "analysis.md#request-verdicts-roceseq",
     {"error", "`roce.seq.timeout_retransmission`", "connections", "recovery of the timer runs on streams no other finding explains"},
     "Find what was lost (the loss and PFC findings) and fix that first; on a lossless fabric also lower the "
     "QP's transport timeout (the 'timeout' QP attribute, 4.096 us x 2^n) so a rare loss costs less, keeping "
     "it above the longest expected pause."},
    {"reorder_nak",
     {{{"roce.seq.reorder_nak", "Caused by reordering",
        "A sequence NAK for a PSN that reached this point out of order, or a resend it forced"}}},
     {{{"roce.seq.reorder_nak.expert", sequence,
        "NAK caused by reordering: the receiver does not accept out-of-order packets"}}},
     "{field} && roce.qp.stream {streams}",
     "analysis.md#reordering-resends-and-mirror-copies",
     {"warning",
      "`roce.seq.reorder_nak`: sequence NAKs for packets that had arrived out of order, and the resends they forced",
      "connections", "recovery"},
     "The receiving NIC does not place packets out of order, so each reordering costs a NAK and a resend of "
     "the window: enable out-of-order data placement on the NICs where they support it (the vendor's "
     "adaptive-routing / out-of-order QP setting), or keep adaptive routing and packet spraying off this RoCE "
     "priority on the switches."},
    {"loss",
     {{{"roce.seq.retransmission", "Retransmission",
        "PSN already seen, or behind the highest PSN seen, at this point"},
       {"roce.ack.nak", "NAK", "NAK code", text}}},
     {{{"roce.seq.retransmission.expert", sequence, "Retransmission"},
       {"roce.ack.nak.expert", sequence, "NAK: PSN sequence error"}}},
     "roce.qp.stream {streams} && ({loss_signs})",
     "analysis.md#request-verdicts-roceseq",
     {"error",
      "sequence-error NAKs and resends no finding above explains (a gap alone is not loss: the late original may "
      "still come)",
      "connections", "recovery"},
     "Something on the path drops RoCE in its lossless class: read the discard counters of the switches on the "
     "path for the RoCE queue, or capture at more points (the triage then names the hop that loses them)."},
    {"nak_error",
     {{{"roce.ack.nak", {}, {}, text}}},
     {{{"roce.ack.nak_error.expert", response_code, "NAK error"}}},
     "{field} == \"{nak}\"",
     "analysis.md#responses-roceack",
     {"warning", "remote access, invalid request, remote operational error NAKs", "points, connections", "-"},
     "Remote access error: check the application's memory registration and the keys it exchanges (rkey, "
     "address range, remote read/write/atomic rights). Invalid request: compare both ends' QP setup (maximum "
     "message size, atomics). Remote operational error: check the responder NIC's kernel log and health "
     "counters."},
    {"microburst",
     {{{"roce.hop.microburst", "Microburst", "Queueing above roce.microburst_us on this hop"}}},
     {{{"roce.hop.microburst.expert", sequence, "Microburst"}}},
     "{field} && roce.point == {point} && roce.hop.prev_point == {prev_point}",
     "triage.md#kinds",
     {"warning", "`roce.hop.microburst`", "hop", "-"},
     "Incast or a burst into the hop's egress port: check that ECN marks before the queue builds that far (a "
     "lower ECN threshold on that queue), and spread the load (ECMP hashing over more QPs or source ports)."},
    {"dcbx_mismatch",
     {{{"roce.dcbx.finding", "DCBX finding", "Where the announcement contradicts the policy or the traffic", text}}},
     // By qos::DcbxFinding::Kind (qos::check_of).
     {{{"roce.dcbx.pfc_off.expert", protocol, "DCBX: PFC off on the RoCE priority"},
       {"roce.dcbx.app_policy.expert", protocol, "DCBX: APP table disagrees with the policy"},
       {"roce.dcbx.app_traffic.expert", protocol, "DCBX: APP table disagrees with the marking seen"}}},
     "{field} && eth.src == {mac}",
     "triage.md#kinds",
     {"warning", "DCBX announcements against the policy or the traffic", "point, MAC", "-"},
     "Make the DCBX configuration of the port or NIC with that MAC match the policy and the traffic: PFC "
     "enabled on the RoCE priority, and an APP table that maps the RoCE DSCP to the priority the traffic uses "
     "(or make the NIC willing to accept the switch's DCBX configuration)."},
    {"ets_mismatch",
     {{{"roce.ets.finding", "ETS finding", "Where the ETS table starves RoCE or CNPs, or differs from another port's",
        text}}},
     // By qos::DcbxFinding::Kind (qos::check_of).
     {{{"roce.ets.no_bandwidth.expert", protocol, "ETS: no bandwidth for the RoCE priority's class"},
       {"roce.ets.cnp_shared.expert", protocol, "ETS: CNPs share a non-strict class"},
       {"roce.ets.ports_differ.expert", protocol, "ETS: the RoCE priority's class differs between ports"}}},
     "{field} && eth.src == {mac}",
     "qos.md#ets",
     {"warning", "DCBX ETS tables against the policy and across ports", "point, MAC", "-"},
     "Give the RoCE priority's traffic class an ETS bandwidth share (a class with 0% gets only what the others "
     "leave), put the CNP priority in a strict-priority class or one of its own, and map each priority to the "
     "same class with the same share on every port of the path."},
    {"bad_pfc_frames",
     {{{"roce.pfc.reserved_bits", "Reserved bits set", "The upper byte of the class-enable vector is not zero"},
       {"roce.pfc.nonstandard_dst", "Non-standard destination", "Not sent to 01:80:c2:00:00:01"},
       {"roce.pfc.truncated", "Truncated", "Some pause times were not captured"}}},
     {{{"roce.pfc.reserved_bits.expert", protocol, "Reserved bits in the PFC class-enable vector"},
       {"roce.pfc.nonstandard_dst.expert", protocol, "PFC frame to a non-standard destination"},
       {"roce.pfc.truncated.expert", malformed, "Truncated PFC frame"}}},
     "({fields}) && roce.point == {point}",
     "triage.md#kinds",
     {"warning", "reserved bits, wrong destination, runts", "point", "-"},
     "Find the sender by its source MAC and update or reconfigure its firmware: receivers may ignore such "
     "pauses (a runt or a wrong address) or act on them differently."},
    {"clock_skew",
     {{{"roce.hop.clock_skew", "Clocks differ",
        "Traffic both ways proves two points' clocks differ (roce.clock:synced)"}}},
     {{{"roce.hop.clock_skew.expert", assumption, "Capture points' clocks differ"},
       {"roce.hop.negative.expert", assumption, "Negative hop latency: clocks not synced"}}},
     "{field} || roce.hop.latency_ns < 0",
     "analysis.md#capture-points",
     {"warning", "proven clock offsets (synced mode) or negative latencies", "pair of points", "-"},
     "Synchronise the capture points (PTP on the taps or capture NICs), or analyse with -o roce.clock:estimate "
     "so the offsets are estimated from the traffic."},
    {"merged_points",
     {{{"roce.point.merged", "Two places at one point",
        "The flow's TTL at this point flips back and forth: two taps merged into one interface"}}},
     {{{"roce.point.merged.expert", assumption, "Two capture points merged into one"}}},
     "{field} && roce.point == {point}",
     "analysis.md#capture-points",
     {"warning", "`roce.point.merged`", "point", "-"},
     "Merge per-tap files with mergecap -I none (so each tap keeps its own interface), or tell the points "
     "apart with -o roce.point_key:erspan or vlan. A SPAN session mirroring a port's ingress and egress "
     "records two places by design: mirror one direction, or the port on each side, where you can."},
    {"rnr",
     {{{"roce.ack.nak", {}, {}, text}}},
     {{{"roce.ack.rnr_nak.expert", sequence, "RNR NAK"}}},
     "{field} == \"RNR\" && roce.qp.stream {streams}",
     "analysis.md#responses-roceack",
     {"note", "RNR NAKs", "connections", "RNR waits"},
     "Post receive buffers ahead of the traffic (a deeper receive queue or SRQ), or raise the RNR retry timer "
     "the receiver advertises if waits are expected."},
    {"reordering",
     {{{"roce.seq.out_of_order", "Out of order",
        "A skipped PSN arriving late, first copy at this point, with nothing that could have made the sender "
        "resend it yet: reordering, neither loss nor retransmission"}}},
     {{{"roce.seq.out_of_order.expert", sequence, "Out of order: a late original (reordering), not a loss"}}},
     "{field} && roce.qp.stream {streams}",
     "analysis.md#reordering-resends-and-mirror-copies",
     {"note", "`roce.seq.out_of_order` on connections with no reorder NAK: reordering the receivers placed",
      "connections", "-"},
     "Nothing to fix while the receiving NICs place packets out of order: keep out-of-order placement enabled "
     "on every NIC these QPs use (one without it NAKs each reordering and resends the window: the reorder_nak "
     "finding). -z roce,hops names the hop where the reordering first appears."},
    {"mirror_duplicates",
     {{{"roce.seq.duplicate", "Duplicate",
        "The same packet recorded again at this point (mirror artefact), not a retransmission"}}},
     {{{"roce.seq.duplicate.expert", sequence, "Duplicate: same packet recorded twice"}}},
     "{field} && roce.point == {point}",
     "analysis.md#reordering-resends-and-mirror-copies",
     {"note", "mirror copies", "point", "-"},
     "Mirror one direction per session (or one port) if the copies get in the way; the statistics are not "
     "affected."},
};
inline constexpr size_t kRows = std::size(kCatalogue);

// A finding kind: its catalogue row. Ordered by the row, the ranking's
// tie-break.
struct Kind {
  uint8_t row = 0;
  friend constexpr auto operator<=>(Kind, Kind) = default;
};

// The kind of a check id, checked when compiling: kind("pfc_storm").
consteval Kind kind(std::string_view id) {
  for (size_t i = 0; i < kRows; ++i)
    if (kCatalogue[i].id == id) return Kind{static_cast<uint8_t>(i)};
  throw "no such check in the catalogue";
}

constexpr const Check& row(Kind k) { return kCatalogue[k.row]; }
inline const char* kind_name(Kind k) { return row(k).id.data(); }

// How many of a row's fields and expert infos are used.
size_t field_count(const Check& c);
size_t expert_count(const Check& c);

// The row's evidence filter with its holes filled: {"point", "3"}.
struct Hole {
  std::string_view name;
  std::string value;
};
std::string evidence_filter(Kind k, std::initializer_list<Hole> holes = {});
// A set of ids as a filter's right-hand side: "== 1", "in {1, 2}".
std::string one_of(const std::set<uint32_t>& ids);

// docs/triage.md's kinds table, as generated from the rows, and that
// document with its table (between kTableBegin and kTableEnd) replaced by it.
std::string markdown_table();
inline constexpr std::string_view kTableBegin = "<!-- generated from epan-ext/common/checks.h: cmake --build build --target update-docs -->\n";
inline constexpr std::string_view kTableEnd = "<!-- end of the generated table -->\n";
std::string with_table(std::string doc);

// The catalogue as one JSON document, for programs (build/checks.json,
// written by `checks-table --json`; roceshark-mcp's `explain` reads it):
// each row's id, docs text, fix, evidence filter (holes left as {name})
// and its fields and expert infos.
std::string catalogue_json();

}  // namespace roceshark::checks
