// C104 configuration registers (docs/c104.md §7): the write-only register port, the per-input
// settings, the interval table and the group starts, plus the values every slice and the arbiter
// derive from them (live entries, group leaders). The per-input LFSRs live in the slices (§11.2).
module c104_cfg (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             cfg_we_i,
  input  logic [7:0]       cfg_addr_i,
  input  logic [31:0]      cfg_wdata_i,
  // Per input port p at [p*w +: w] (§8).
  output logic [32*4-1:0]  cfg_port_o,
  output logic [32*16-1:0] cfg_rlo_o,
  output logic [32*16-1:0] cfg_rhi_o,
  // Seed write of input p's LFSR at this edge, and the value it loads (0 already replaced).
  output logic [31:0]      seed_we_o,
  output logic [15:0]      seed_o,
  // Interval table, entry e at [e*w +: w] (§9.1).
  output logic [32*16-1:0] cfg_ihi_o,
  output logic [32*5-1:0]  cfg_iport_o,
  output logic [31:0]      cfg_ival_o,
  output logic [5:0]       cfg_nint_o,
  output logic             cfg_rr_o,
  output logic [31:0]      cfg_grp_o,
  // Derived, combinational from the registers: entry e is live (e < min(cfg_nint, 32)), the
  // leader of the port entry e names, and the leader of every port q (§9.1, §10.1).
  output logic [31:0]      live_o,
  output logic [32*5-1:0]  eldr_o,
  output logic [32*5-1:0]  ldr_o
);

  // Address map (§7): the top three bits select a block of 32, 0x80 and 0x81 the globals.
  localparam logic [1:0] BlkPort = 2'd0;
  localparam logic [1:0] BlkRng  = 2'd1;
  localparam logic [1:0] BlkSeed = 2'd2;
  localparam logic [1:0] BlkInt  = 2'd3;
  localparam logic [7:0] AddrNint = 8'h80;
  localparam logic [7:0] AddrGrp  = 8'h81;
  // An LFSR never holds 0 (§7, §11.2): a written 0 and the reset value are this seed.
  localparam logic [15:0] SeedZero = 16'hACE1;

  logic [32*4-1:0]  cfg_port_d, cfg_port_q;
  logic [32*16-1:0] cfg_rlo_d, cfg_rlo_q;
  logic [32*16-1:0] cfg_rhi_d, cfg_rhi_q;
  logic [32*16-1:0] cfg_ihi_d, cfg_ihi_q;
  logic [32*5-1:0]  cfg_iport_d, cfg_iport_q;
  logic [31:0]      cfg_ival_d, cfg_ival_q;
  logic [5:0]       cfg_nint_d, cfg_nint_q;
  logic             cfg_rr_d, cfg_rr_q;
  logic [31:0]      cfg_grp_d, cfg_grp_q;

  logic [4:0] idx;
  logic       blk_we;
  logic [4:0] lead;

  always_comb begin
    cfg_port_d  = cfg_port_q;
    cfg_rlo_d   = cfg_rlo_q;
    cfg_rhi_d   = cfg_rhi_q;
    cfg_ihi_d   = cfg_ihi_q;
    cfg_iport_d = cfg_iport_q;
    cfg_ival_d  = cfg_ival_q;
    cfg_nint_d  = cfg_nint_q;
    cfg_rr_d    = cfg_rr_q;
    cfg_grp_d   = cfg_grp_q;
    seed_we_o   = 32'd0;
    idx         = cfg_addr_i[4:0];
    // 0x00-0x7F: four blocks of 32 registers; 0x80-0xFF: only 0x80 and 0x81 exist.
    blk_we      = cfg_we_i && !cfg_addr_i[7];

    if (blk_we) begin
      unique case (cfg_addr_i[6:5])
        BlkPort: cfg_port_d[idx*4 +: 4] = cfg_wdata_i[3:0];
        BlkRng: begin
          cfg_rlo_d[idx*16 +: 16] = cfg_wdata_i[15:0];
          cfg_rhi_d[idx*16 +: 16] = cfg_wdata_i[31:16];
        end
        BlkSeed: seed_we_o[idx] = 1'b1;
        BlkInt: begin
          cfg_ihi_d[idx*16 +: 16] = cfg_wdata_i[15:0];
          cfg_iport_d[idx*5 +: 5] = cfg_wdata_i[20:16];
          cfg_ival_d[idx]         = cfg_wdata_i[24];
        end
        default: ;
      endcase
    end
    // Stored as written: a count above 32 acts as 32 (live below), bit 0 of cfg_grp acts as 1
    // (leaders below); the registers keep what the port wrote.
    if (cfg_we_i && cfg_addr_i == AddrNint) begin
      cfg_nint_d = cfg_wdata_i[5:0];
      cfg_rr_d   = cfg_wdata_i[8];
    end
    if (cfg_we_i && cfg_addr_i == AddrGrp) begin
      cfg_grp_d = cfg_wdata_i;
    end
  end

  // The seed write wins over a draw at the same edge; the slice applies that priority.
  assign seed_o = (cfg_wdata_i[15:0] == 16'd0) ? SeedZero : cfg_wdata_i[15:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_port_q  <= '0;
      cfg_rlo_q   <= '0;
      cfg_rhi_q   <= '0;
      cfg_ihi_q   <= '0;
      cfg_iport_q <= '0;
      cfg_ival_q  <= '0;
      cfg_nint_q  <= 6'd0;
      cfg_rr_q    <= 1'b0;
      cfg_grp_q   <= 32'hFFFF_FFFF;
    end else begin
      cfg_port_q  <= cfg_port_d;
      cfg_rlo_q   <= cfg_rlo_d;
      cfg_rhi_q   <= cfg_rhi_d;
      cfg_ihi_q   <= cfg_ihi_d;
      cfg_iport_q <= cfg_iport_d;
      cfg_ival_q  <= cfg_ival_d;
      cfg_nint_q  <= cfg_nint_d;
      cfg_rr_q    <= cfg_rr_d;
      cfg_grp_q   <= cfg_grp_d;
    end
  end

  // §9.1: entry e is live when e < min(cfg_nint, 32); with e <= 31 that is e < cfg_nint.
  // §10.1: leader(q) is the largest q' <= q with q' = 0 or cfg_grp[q'] set.
  always_comb begin
    for (int unsigned e = 0; e < 32; e++) begin
      live_o[e] = ({26'd0, cfg_nint_q} > e);
    end
    lead = 5'd0;
    for (int unsigned q = 1; q < 32; q++) begin
      if (cfg_grp_q[q]) begin
        lead = 5'(q);
      end
      ldr_o[q*5 +: 5] = lead;
    end
    ldr_o[4:0] = 5'd0;
  end

  // One leader per entry, so a slice's lookup only selects it (§9.1 "group leader").
  always_comb begin
    for (int unsigned e = 0; e < 32; e++) begin
      eldr_o[e*5 +: 5] = ldr_o[cfg_iport_q[e*5 +: 5]*5 +: 5];
    end
  end

  assign cfg_port_o  = cfg_port_q;
  assign cfg_rlo_o   = cfg_rlo_q;
  assign cfg_rhi_o   = cfg_rhi_q;
  assign cfg_ihi_o   = cfg_ihi_q;
  assign cfg_iport_o = cfg_iport_q;
  assign cfg_ival_o  = cfg_ival_q;
  assign cfg_nint_o  = cfg_nint_q;
  assign cfg_rr_o    = cfg_rr_q;
  assign cfg_grp_o   = cfg_grp_q;

endmodule
