// SPDX-License-Identifier: GPL-2.0-or-later
// The one place that knows how Wireshark's API differs between the versions
// roceshark builds against (4.0, 4.2, 4.4, 4.6): the plugin's calls, the
// capture generator's wiretap writing (captures/gen/pcapng_writer.cpp) and
// the roceshark command's reading (cli/capture_reader.cpp).
// Every other file calls these and has no version #if of its own.
//
// Where a difference is a type, it is read off the declaration itself
// (decltype), so a version in between that we cannot build here (4.2 is in
// no Debian release) gets whichever form its headers declare.
#pragma once
#include <epan/epan.h>
#include <epan/funnel.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/proto.h>
#include <epan/stat_tap_ui.h>
#include <epan/tfs.h>  // 4.6's proto.h no longer includes it
// 4.0's conv_id.h needs GLib's types included before it.
#include <epan/conversation_table.h>
#include <ws_version.h>  // WIRESHARK_VERSION_MAJOR/MINOR, for plugin_want_*
#include <wiretap/wtap.h>
#include <wsutil/buffer.h>
#include <wsutil/wslog.h>
#if __has_include(<wsutil/plugins.h>)
#include <wsutil/plugins.h>  // 4.4+: plugin_describe() and its flags
#endif

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

namespace roceshark::ws {

namespace detail {
template <typename F>
struct args;
template <typename R, typename... A>
struct args<R(A...)> {
  using type = std::tuple<A...>;
};
template <std::size_t I, auto& F>
using arg_t = std::tuple_element_t<I, typename args<std::remove_cvref_t<decltype(F)>>::type>;

// fi->value is an fvalue_t up to 4.0 and an fvalue_t* from 4.2.
template <typename FieldInfo>
uint32_t field_uint(FieldInfo* fi) {
  if constexpr (std::is_pointer_v<decltype(fi->value)>)
    return fvalue_get_uinteger(fi->value);
  else
    return fvalue_get_uinteger(&fi->value);
}

// After 4.0 interface lookups take the pcapng section number too (4.4 has it).
template <typename Session, typename PacketInfo>
const char* interface_name(const Session* epan, const PacketInfo* pinfo, uint32_t id) {
  if constexpr (std::is_invocable_v<decltype(epan_get_interface_name), const Session*, uint32_t, unsigned>) {
    const unsigned section = pinfo->rec ? pinfo->rec->section_number : 0;
    return epan_get_interface_name(epan, id, section);
  } else {
    (void)pinfo;
    return epan_get_interface_name(epan, id);
  }
}

// 4.6 dropped ws_log_init's program name.
template <typename F>
void log_init(F init, const char* progname) {
  if constexpr (std::is_invocable_v<F, const char*, std::nullptr_t>)
    init(progname, nullptr);
  else
    init(nullptr);
}

// 4.6: wtap_rec_init takes the size of the record's own data buffer.
template <typename F, typename Rec>
void rec_init(F init, Rec* rec) {
  if constexpr (std::is_invocable_v<F, Rec*, gsize>)
    init(rec, 2048);
  else
    init(rec);
}

// Up to 4.4 wtap_dump takes the packet bytes; 4.6 takes them in rec->data.
template <typename F, typename Rec>
bool dump(F write, wtap_dumper* d, Rec* rec, const uint8_t* data, size_t len, int* err, gchar** info) {
  if constexpr (std::is_invocable_v<F, wtap_dumper*, const Rec*, const uint8_t*, int*, gchar**>) {
    return write(d, rec, data, err, info);
  } else {
    ws_buffer_clean(&rec->data);
    ws_buffer_append(&rec->data, data, len);
    return write(d, rec, err, info);
  }
}

// Up to 4.4 wtap_read fills a Buffer of the caller's; 4.6 fills rec->data.
template <typename F, typename Rec>
const uint8_t* read(F next, wtap* w, Rec* rec, Buffer* buf, int* err, gchar** info, gint64* offset) {
  if constexpr (std::is_invocable_v<F, wtap*, Rec*, Buffer*, int*, gchar**, gint64*>) {
    return next(w, rec, buf, err, info, offset) ? ws_buffer_start_ptr(buf) : nullptr;
  } else {
    (void)buf;
    return next(w, rec, err, info, offset) ? ws_buffer_start_ptr(&rec->data) : nullptr;
  }
}

// 4.0's add_conversation_table_data_with_conv_id returns nothing; from 4.2
// (4.4 has it) it returns the row. Up to 4.0 the row is looked up by its key,
// as Wireshark stored it: either way round.
template <typename F>
conv_item_t* add_conversation(F add, conv_hash_t* ch, const address* src, const address* dst, uint32_t src_port,
                              uint32_t dst_port, conv_id_t id, int bytes, nstime_t* ts, nstime_t* abs_ts,
                              ct_dissector_info_t* info, conversation_type type) {
  using R = decltype(add(ch, src, dst, src_port, dst_port, id, 1, bytes, ts, abs_ts, info, type));
  if constexpr (std::is_void_v<R>) {
    add(ch, src, dst, src_port, dst_port, id, 1, bytes, ts, abs_ts, info, type);
    for (const conv_key_t& key : {conv_key_t{*src, *dst, src_port, dst_port, id}, conv_key_t{*dst, *src, dst_port, src_port, id}}) {
      gpointer index;
      if (ch->hashtable && g_hash_table_lookup_extended(ch->hashtable, &key, nullptr, &index))
        return &g_array_index(ch->conv_array, conv_item_t, GPOINTER_TO_UINT(index));
    }
    return nullptr;
  } else {
    return add(ch, src, dst, src_port, dst_port, id, 1, bytes, ts, abs_ts, info, type);
  }
}
}  // namespace detail

// An unsigned integer field's value.
inline uint32_t field_uint(field_info* fi) { return detail::field_uint(fi); }

// The name of capture interface `id` of this packet's pcapng section, or null.
inline const char* interface_name(const packet_info* pinfo, uint32_t id) {
  return pinfo->epan ? detail::interface_name(pinfo->epan, pinfo, id) : nullptr;
}

// One frame added to a conversation table's row (src, dst, ports, id): the row.
inline conv_item_t* add_conversation(conv_hash_t* ch, const address* src, const address* dst, uint32_t src_port,
                                     uint32_t dst_port, conv_id_t id, int bytes, nstime_t* ts, nstime_t* abs_ts,
                                     ct_dissector_info_t* info, conversation_type type) {
  return detail::add_conversation(add_conversation_table_data_with_conv_id, ch, src, dst, src_port, dst_port, id, bytes,
                                  ts, abs_ts, info, type);
}

// Wiretap, for reading and writing captures.
inline void log_init(const char* progname) { detail::log_init(ws_log_init, progname); }
inline void rec_init(wtap_rec* rec) { detail::rec_init(wtap_rec_init, rec); }
inline bool dump(wtap_dumper* d, wtap_rec* rec, const uint8_t* data, size_t len, int* err, gchar** info) {
  return detail::dump(wtap_dump, d, rec, data, len, err, info);
}
// wiretap's message for an error, with its detail (freed here).
inline std::string wtap_error(int err, gchar* info) {
  std::string s = wtap_strerror(err);
  if (info) {
    s += std::string(" (") + info + ")";
    g_free(info);
  }
  return s;
}
// A read error in the words the command and the plugin both give it:
// "FILE: record N: why" (N from 1).
inline std::string read_error_text(const std::string& path, uint64_t record, int err, gchar* info) {
  return path + ": record " + std::to_string(record) + ": " + wtap_error(err, info);
}
// The next record's bytes, or null at the end or on an error (err set).
inline const uint8_t* read(wtap* w, wtap_rec* rec, Buffer* buf, int* err, gchar** info, gint64* offset) {
  return detail::read(wtap_read, w, rec, buf, err, info, offset);
}

// What a boolean preference points at: gboolean up to 4.0, bool later.
using pref_bool = std::remove_pointer_t<detail::arg_t<4, prefs_register_bool_preference>>;

// What a `-z` statistic's init callback returns: nothing up to 4.4, from 4.6
// whether the listener was registered. Return tap_init_done() from it.
using tap_init_result = std::invoke_result_t<stat_tap_init_cb, const char*, void*>;
constexpr tap_init_result tap_init_done() { return static_cast<tap_init_result>(true); }

// What a funnel text window's button callback returns: gboolean up to 4.0, bool later.
using funnel_bool = std::invoke_result_t<funnel_bt_cb_t, funnel_text_window_t*, void*>;

}  // namespace roceshark::ws

// plugin_describe() exists from 4.4: what kinds of plugin this .so holds.
#ifdef WS_PLUGIN_DESC_DISSECTOR
#define ROCESHARK_WS_PLUGIN_DESCRIBE 1
#define ROCESHARK_WS_PLUGIN_KINDS (WS_PLUGIN_DESC_DISSECTOR | WS_PLUGIN_DESC_TAP_LISTENER)
#else
#define ROCESHARK_WS_PLUGIN_DESCRIBE 0
#endif
