// When a D-SPTF brick picks its next read, sends CLAIM and issues the command (Lumb 4.1.3 and
// chapter 7.1, 7.3). The protocols differ in when the pick happens and how long the brick
// waits for other bricks' CLAIMs before the disk command:
//   prescheduling           (chapter 6's default) the pick and CLAIM two one-way latencies before
//                           the current command is predicted to end (the brick's own prediction of
//                           its status time), the command two one-way latencies after the pick and
//                           not before the disk is free: the wait overlaps the current command
//   latency                 the pick when the current command ends; the brick waits only as long as
//                           the picked read's predicted rotational latency (no time lost at the
//                           disk: it would wait for the sector anyway), so a late CLAIM can come
//                           after the command went out: the read is served twice (a duplicate)
//   latency_random_backoff  latency scheduling, and a brick that finds it served a read another
//                           brick had the better bid for picks its next read at random (breaks the
//                           "conflict cycle" of two bricks at the same head position, 7.1)
//   post_abort              no CLAIM before the command (a disk scheduling inside the drive cannot
//                           say what it picks): the pick at completion, the command at once, and
//                           the CLAIM (an abort for the others' copies) after the command (7.3)
// Plain C++.
#pragma once

#include <optional>
#include <string>

namespace raidtlm::controller {

enum class claim_protocol { prescheduling, latency, latency_random_backoff, post_abort };
const char *to_string(claim_protocol p);
std::optional<claim_protocol> claim_protocol_named(const std::string &name);

// Whether the brick sends its CLAIM when it picks a read (else after the read is served).
bool claims_before_issue(claim_protocol p);
// Whether the next pick is made before the current command ends (prescheduling only).
bool picks_ahead(claim_protocol p);
// Whether a brick that served a read another brick deserved picks its next read at random.
bool backs_off_at_random(claim_protocol p);

// Prescheduling: when to pick the next command while one is at the disk whose status the brick
// predicts at predicted_status_ms; never before now_ms.
double pick_ahead_at_ms(double now_ms, double predicted_status_ms, double one_way_latency_ms);

// How long after its pick the brick may send the picked read to the disk: prescheduling waits
// two one-way latencies (the CLAIM's round trip), latency scheduling the read's predicted
// rotational latency, post abort nothing.
double claim_wait_ms(claim_protocol p, double one_way_latency_ms, double predicted_rotation_ms);

}  // namespace raidtlm::controller
