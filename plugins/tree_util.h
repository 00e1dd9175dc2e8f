// SPDX-License-Identifier: GPL-2.0-or-later
// Small helpers for the render files: every item the postdissector adds is
// generated (it is analysis, not packet bytes).
#pragma once
#include <epan/proto.h>

namespace roceshark::glue {

inline proto_item* gen(proto_item* it) {
  proto_item_set_generated(it);
  return it;
}

inline proto_item* add_flag(proto_tree* t, tvbuff_t* tvb, int hf) {
  return gen(proto_tree_add_boolean(t, hf, tvb, 0, 0, TRUE));
}

// Our tree, or null when no filter, column or view looks at our fields:
// proto_tree_add_* on a null tree return at once, expert infos still count.
inline proto_tree* wanted_tree(proto_tree* tree, int proto) {
  return tree && proto_field_is_referenced(tree, proto) ? tree : nullptr;
}

}  // namespace roceshark::glue
