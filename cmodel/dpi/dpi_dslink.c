/* The DPI descriptors of the DS-Link link end and of the C104 switch (its 32 links take the
 * DS-Link's parameters): their port lists placed in the C structs, their params keys. */
#include <stddef.h>

#include <madpost/c104.h>
#include <madpost/dslink.h>

#include "dpi_int.h"

/* ---- DS-Link ----------------------------------------------------------------------------------- */
MDPI_GLUE(dslink)

#define DSL_IN(n, c, w) MDPI_FIELD_AT(dslink_in_t, "", n, #n, "_i", c, w, 0)
#define DSL_OUT(n, c, w) MDPI_FIELD_AT(dslink_out_t, "", n, #n, "_o", c, w, 0)
#define DSL_REG(n, c, w) MDPI_FIELD_AT(dslink_regs_t, "", n, #n, "_q", c, w, 0)
static const mdpi_field_t dsl_in[] = {DSLINK_INPUTS(DSL_IN)};
static const mdpi_field_t dsl_out[] = {DSLINK_OUTPUTS(DSL_OUT)};
static const mdpi_field_t dsl_reg[] = {DSLINK_REGS(DSL_REG)};

static void dsl_default(void *c) { dslink_cfg_default(c); }
static int dsl_check(const void *c, char *err, size_t n) { return dslink_cfg_check(c, err, n); }
static int dsl_set(void *cfg, const char *key, uint32_t v) {
  dslink_cfg_t *c = cfg;
#define DSL_SET(rtl, field, def)             \
  if (madpost_dpi_core_key_is(key, #field, #rtl)) {      \
    c->field = v;                            \
    return 0;                                \
  }
  DSLINK_PARAMS(DSL_SET)
#undef DSL_SET
  return -1;
}
static const void *dsl_regs(const void *st, void *view) {
  (void)view;
  return &((const dslink_state_t *)st)->r;
}

#define DSL_KEY(rtl, field, def) #field " "
static const mdpi_block_t dsl_block = {
    "dslink", sizeof(dslink_cfg_t), sizeof(dslink_state_t), sizeof(dslink_next_t),
    sizeof(dslink_in_t), sizeof(dslink_out_t), 0, MDPI_LIST(dsl_in), MDPI_LIST(dsl_out),
    MDPI_LIST(dsl_reg), DSLINK_PARAMS(DSL_KEY), dsl_default, dsl_set, dsl_check, dslink_dpi_reset,
    dslink_dpi_eval, dslink_dpi_clock, dsl_regs};

MDPI_EXPORT(dslink, dsl_block)

/* ---- C104 --------------------------------------------------------------------------------------- */
MDPI_GLUE(c104)

#define C104_IN(n, c, w) MDPI_FIELD_AT(c104_in_t, "", n, #n, "_i", c, w, 0)
#define C104_OUT(n, c, w) MDPI_FIELD_AT(c104_out_t, "", n, #n, "_o", c, w, 0)
#define C104_REG(n, c, w) MDPI_FIELD_AT(c104_state_t, "", r.n, #n, "_q", c, w, 0)
/* dbg_l_<reg>_o: link p's register, one dslink_state_t apart (the count given is dslink's, 1). */
#define C104_LREG(n, c, w) \
  MDPI_FIELD_AT(c104_state_t, "l_", link[0].r.n, #n, "_q", C104_PORTS, w, sizeof(dslink_state_t))
static const mdpi_field_t c104_in[] = {C104_INPUTS(C104_IN)};
static const mdpi_field_t c104_out[] = {C104_OUTPUTS(C104_OUT)};
static const mdpi_field_t c104_reg[] = {C104_REGS(C104_REG) C104_LINK_REGS(C104_LREG)};

static void c104_dpi_default(void *c) { c104_cfg_default(c); }
static int c104_dpi_check(const void *c, char *err, size_t n) { return c104_cfg_check(c, err, n); }
static int c104_dpi_set(void *cfg, const char *key, uint32_t v) {
  c104_cfg_t *c = cfg;
#define C104_SET(rtl, field, def)            \
  if (madpost_dpi_core_key_is(key, #field, #rtl)) {      \
    c->field = v;                            \
    return 0;                                \
  }
  C104_PARAMS(C104_SET)
#undef C104_SET
  return -1;
}
static const void *c104_dpi_regs(const void *st, void *view) {
  (void)view;
  return st;
}

#define C104_KEY(rtl, field, def) #field " "
static const mdpi_block_t c104_block = {
    "c104", sizeof(c104_cfg_t), sizeof(c104_state_t), sizeof(c104_next_t), sizeof(c104_in_t),
    sizeof(c104_out_t), 0, MDPI_LIST(c104_in), MDPI_LIST(c104_out), MDPI_LIST(c104_reg),
    C104_PARAMS(C104_KEY), c104_dpi_default, c104_dpi_set, c104_dpi_check, c104_dpi_reset,
    c104_dpi_eval, c104_dpi_clock, c104_dpi_regs};

MDPI_EXPORT(c104, c104_block)
