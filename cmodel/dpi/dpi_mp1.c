/* The DPI descriptors of the MP1 routing machine, plane and chip: their port lists placed in the
 * C structs (the plane's registers flattened by mp1_plane_regs, the chip's four planes' after the
 * chip's own), and their one param, awf. */
#include <stdio.h>
#include <stddef.h>

#include <madpost/mp1_chip.h>
#include <madpost/mp1_plane.h>
#include <madpost/mp1_rm.h>

#include "dpi_int.h"

/* awf: the library's port lists have the widths of MP1_AWF (docs/mp1.md §14), so a model of
 * another awf would not fit the packed vectors; it is refused. The three cfg structs are alike. */
#define MP1_DPI_CFG(p)                                                                         \
  static void p##_dpi_default(void *c) { ((p##_cfg_t *)c)->awf = MP1_AWF; }                    \
  static int p##_dpi_set(void *c, const char *key, uint32_t v) {                               \
    if (!madpost_dpi_core_key_is(key, "awf", "AWF"))                                                       \
      return -1;                                                                               \
    ((p##_cfg_t *)c)->awf = v;                                                                 \
    return 0;                                                                                  \
  }                                                                                            \
  static int p##_dpi_check(const void *c, char *err, size_t n) {                               \
    if (((const p##_cfg_t *)c)->awf == MP1_AWF)                                                \
      return 0;                                                                                \
    snprintf(err, n, "awf must be %d (the port widths this library was built with)", MP1_AWF); \
    return -1;                                                                                 \
  }

/* ---- Routing machine ---------------------------------------------------------------------------- */
MDPI_GLUE(mp1_rm)
MP1_DPI_CFG(mp1_rm)

#define RM_IN(n, c, w) MDPI_FIELD_AT(mp1_rm_in_t, "", n, #n, "_i", c, w, 0)
#define RM_OUT(n, c, w) MDPI_FIELD_AT(mp1_rm_out_t, "", n, #n, "_o", c, w, 0)
#define RM_REG(n, c, w) MDPI_FIELD_AT(mp1_rm_regs_t, "", n, #n, "_q", c, w, 0)
static const mdpi_field_t rm_in[] = {MP1_RM_INPUTS(RM_IN)};
static const mdpi_field_t rm_out[] = {MP1_RM_OUTPUTS(RM_OUT)};
static const mdpi_field_t rm_reg[] = {MP1_RM_REGS(RM_REG)};
static const void *rm_regs(const void *st, void *view) {
  (void)view;
  return &((const mp1_rm_state_t *)st)->r;
}

static const mdpi_block_t rm_block = {
    "mp1_rm", sizeof(mp1_rm_cfg_t), sizeof(mp1_rm_state_t), sizeof(mp1_rm_next_t),
    sizeof(mp1_rm_in_t), sizeof(mp1_rm_out_t), 0, MDPI_LIST(rm_in), MDPI_LIST(rm_out),
    MDPI_LIST(rm_reg), "awf", mp1_rm_dpi_default, mp1_rm_dpi_set, mp1_rm_dpi_check,
    mp1_rm_dpi_reset, mp1_rm_dpi_eval, mp1_rm_dpi_clock, rm_regs};
MDPI_EXPORT(mp1_rm, rm_block)

/* ---- Plane ---------------------------------------------------------------------------------------- */
MDPI_GLUE(mp1_plane)
MP1_DPI_CFG(mp1_plane)

#define PL_IN(n, c, w) MDPI_FIELD_AT(mp1_plane_in_t, "", n, #n, "_i", c, w, 0)
#define PL_OUT(n, c, w) MDPI_FIELD_AT(mp1_plane_out_t, "", n, #n, "_o", c, w, 0)
#define PL_REG(n, c, w) MDPI_FIELD_AT(mp1_plane_regs_t, "", n, #n, "_q", c, w, 0)
static const mdpi_field_t pl_in[] = {MP1_PLANE_INPUTS(PL_IN)};
static const mdpi_field_t pl_out[] = {MP1_PLANE_OUTPUTS(PL_OUT)};
static const mdpi_field_t pl_reg[] = {MP1_PLANE_REGS(PL_REG)};
static const void *pl_regs(const void *st, void *view) {
  mp1_plane_regs(st, view);
  return view;
}

static const mdpi_block_t pl_block = {
    "mp1_plane", sizeof(mp1_plane_cfg_t), sizeof(mp1_plane_state_t), sizeof(mp1_plane_next_t),
    sizeof(mp1_plane_in_t), sizeof(mp1_plane_out_t), sizeof(mp1_plane_regs_t), MDPI_LIST(pl_in),
    MDPI_LIST(pl_out), MDPI_LIST(pl_reg), "awf", mp1_plane_dpi_default, mp1_plane_dpi_set,
    mp1_plane_dpi_check, mp1_plane_dpi_reset, mp1_plane_dpi_eval, mp1_plane_dpi_clock, pl_regs};
MDPI_EXPORT(mp1_plane, pl_block)

/* ---- Chip ----------------------------------------------------------------------------------------- */
MDPI_GLUE(mp1_chip)
MP1_DPI_CFG(mp1_chip)

/* The chip's registers, then each plane's (dbg_p<k>_o: MP1_PLANE_REGS order, the first in the
 * top bits, as the chip's own registers before them). */
typedef struct {
  mp1_chip_regs_t r;
  mp1_plane_regs_t pl[MP1_CHIP_PLANES];
} chip_view_t;

#define CH_IN(n, c, w) MDPI_FIELD_AT(mp1_chip_in_t, "", n, #n, "_i", c, w, 0)
#define CH_OUT(n, c, w) MDPI_FIELD_AT(mp1_chip_out_t, "", n, #n, "_o", c, w, 0)
#define CH_REG(n, c, w) MDPI_FIELD_AT(chip_view_t, "", r.n, #n, "_q", c, w, 0)
#define CH_P0(n, c, w) MDPI_FIELD_AT(chip_view_t, "p0_", pl[0].n, #n, "_q", c, w, 0)
#define CH_P1(n, c, w) MDPI_FIELD_AT(chip_view_t, "p1_", pl[1].n, #n, "_q", c, w, 0)
#define CH_P2(n, c, w) MDPI_FIELD_AT(chip_view_t, "p2_", pl[2].n, #n, "_q", c, w, 0)
#define CH_P3(n, c, w) MDPI_FIELD_AT(chip_view_t, "p3_", pl[3].n, #n, "_q", c, w, 0)
static const mdpi_field_t ch_in[] = {MP1_CHIP_INPUTS(CH_IN)};
static const mdpi_field_t ch_out[] = {MP1_CHIP_OUTPUTS(CH_OUT)};
static const mdpi_field_t ch_reg[] = {MP1_CHIP_REGS(CH_REG) MP1_PLANE_REGS(CH_P0)
                                          MP1_PLANE_REGS(CH_P1) MP1_PLANE_REGS(CH_P2)
                                              MP1_PLANE_REGS(CH_P3)};
static const void *ch_regs(const void *st, void *view) {
  const mp1_chip_state_t *s = st;
  chip_view_t *v = view;
  v->r = s->r;
  for (int k = 0; k < MP1_CHIP_PLANES; k++)
    mp1_plane_regs(&s->pl[k], &v->pl[k]);
  return v;
}

static const mdpi_block_t ch_block = {
    "mp1_chip", sizeof(mp1_chip_cfg_t), sizeof(mp1_chip_state_t), sizeof(mp1_chip_next_t),
    sizeof(mp1_chip_in_t), sizeof(mp1_chip_out_t), sizeof(chip_view_t), MDPI_LIST(ch_in),
    MDPI_LIST(ch_out), MDPI_LIST(ch_reg), "awf", mp1_chip_dpi_default, mp1_chip_dpi_set,
    mp1_chip_dpi_check, mp1_chip_dpi_reset, mp1_chip_dpi_eval, mp1_chip_dpi_clock, ch_regs};
MDPI_EXPORT(mp1_chip, ch_block)
