/// The report's stylesheet, inline in every page: the page is one file that needs nothing else.
/// Colours: stress red, activity blue, breathing green, baseline teal, corrections amber, notes
/// violet; shading keeps its colour in print.
public enum ReportStyle {
    public static let css = """
        :root { color-scheme: light; }
        * { box-sizing: border-box; }
        html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        body { margin: 0; background: #eef2f6; color: #0f172a;
          font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "DejaVu Sans", sans-serif; }
        main { max-width: 1180px; margin: 0 auto; padding: 28px 36px 36px; background: #fff; }
        header.report { border-bottom: 1px solid #e2e8f0; padding-bottom: 14px; }
        .kicker { margin: 0; font-size: 12px; font-weight: 600; letter-spacing: .08em; text-transform: uppercase; color: #0f766e; }
        h1 { font-size: 26px; line-height: 1.25; margin: 2px 0 4px; font-weight: 650; }
        h2 { font-size: 17px; margin: 26px 0 6px; font-weight: 650; }
        h2 + p.lead { margin-top: 0; }
        p.lead, .subtitle { color: #475569; margin: 0 0 8px; }
        .figures { display: grid; gap: 10px; margin: 18px 0 4px; }
        .figures.columns-5 { grid-template-columns: repeat(5, 1fr); } .figures.columns-6 { grid-template-columns: repeat(6, 1fr); }
        @media (max-width: 900px) { .figures.columns-5, .figures.columns-6 { grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); } }
        .figure { border: 1px solid #e2e8f0; border-radius: 8px; padding: 9px 12px; background: #f8fafc; break-inside: avoid; }
        .figure .label { font-size: 11.5px; font-weight: 600; color: #64748b; letter-spacing: .05em; text-transform: uppercase; }
        .figure .value { font-size: 21px; font-weight: 650; font-variant-numeric: tabular-nums; }
        .figure .detail { font-size: 12.5px; color: #64748b; }
        .warning { border-left: 4px solid #d97706; background: #fffbeb; padding: 8px 12px; margin: 12px 0; border-radius: 0 6px 6px 0; }
        figure { margin: 0 0 6px; break-inside: avoid; }
        figcaption { font-size: 13px; color: #475569; margin: 2px 0 0; }
        svg.chart { display: block; width: 100%; height: auto; }
        svg text { font-size: 11px; fill: #475569; font-family: inherit; }
        svg .axis-title { font-size: 12px; fill: #334155; }
        svg .grid { stroke: #edf1f5; stroke-width: 1; }
        svg .frame { fill: none; stroke: #cbd5e1; }
        svg polyline { fill: none; stroke-width: 1.6; stroke-linejoin: round; stroke-linecap: round; }
        svg .line-hr { stroke: #334155; } svg .line-hr-point { fill: #334155; }
        svg .line-rmssd { stroke: #0f766e; } svg .line-rmssd-point { fill: #0f766e; }
        svg .line-ln { stroke: #0f766e; stroke-width: 2; } svg .dot-ln { fill: #0f766e; stroke: #fff; stroke-width: 1.5; }
        svg .line-resting { stroke: #334155; stroke-width: 2; } svg .dot-resting { fill: #334155; stroke: #fff; stroke-width: 1.5; }
        svg .stress { fill: #dc2626; fill-opacity: .13; } svg .stress-strip { fill: #dc2626; }
        svg .activity { fill: #2563eb; fill-opacity: .12; } svg .activity-strip { fill: #2563eb; }
        svg .exercise { fill: #16a34a; fill-opacity: .15; } svg .exercise-strip { fill: #16a34a; }
        svg .gap { fill: #94a3b8; fill-opacity: .35; }
        svg .state-recovery { fill: #7c3aed; fill-opacity: .08; } svg .state-paced_breathing { fill: #16a34a; fill-opacity: .08; }
        svg .state-posture { fill: #a16207; fill-opacity: .10; }
        svg .band { fill: #0f766e; fill-opacity: .12; }
        svg .line-week { stroke: #134e4a; stroke-width: 2.5; stroke-dasharray: 6 3; } svg .dot-week { fill: none; stroke: none; }
        svg .mark-below { fill: none; stroke: #dc2626; stroke-width: 2.5; } svg .mark-above { fill: none; stroke: #2563eb; stroke-width: 2.5; }
        svg .band-mean { stroke: #0f766e; stroke-width: 1; stroke-dasharray: 5 4; }
        svg .artifact { fill: #d97706; } svg .implausible { fill: #475569; }
        svg .note line { stroke: #7c3aed; stroke-width: 1.2; stroke-dasharray: 3 3; }
        svg .note circle { fill: #7c3aed; } svg .note text { fill: #fff; font-size: 10px; font-weight: 700; }
        svg .bar-stress { fill: #dc2626; } svg .bar-sessions { fill: #64748b; }
        svg .bar-label { font-size: 10.5px; fill: #334155; } svg .bar-trigger { fill: #b45309; }
        svg .day-label { font-size: 11.5px; fill: #334155; }
        svg .empty-label { font-size: 12px; fill: #94a3b8; }
        svg .heat-none { fill: #e9edf2; }
        svg .heat-0 { fill: #ffffff; stroke: #b6c2d1; stroke-width: .8; }
        svg .heat-1 { fill: #fecaca; } svg .heat-2 { fill: #f87171; } svg .heat-3 { fill: #ef4444; }
        svg .heat-4 { fill: #b91c1c; } svg .heat-5 { fill: #7f1d1d; }
        .legend { display: flex; flex-wrap: wrap; gap: 4px 18px; list-style: none; padding: 0; margin: 6px 0 0; font-size: 13px; color: #334155; }
        .legend li { display: flex; align-items: center; gap: 6px; }
        .swatch { display: inline-block; width: 14px; height: 14px; border-radius: 3px; border: 1px solid rgba(15, 23, 42, .15); }
        .swatch.line { height: 3px; border: 0; border-radius: 2px; }
        .swatch.hr { background: #334155; } .swatch.rmssd { background: #0f766e; }
        .swatch.stress { background: rgba(220, 38, 38, .3); } .swatch.activity { background: rgba(37, 99, 235, .28); }
        .swatch.state-recovery { background: rgba(124, 58, 237, .2); } .swatch.state-paced_breathing { background: rgba(22, 163, 74, .2); }
        .swatch.state-posture { background: rgba(161, 98, 7, .22); }
        .swatch.exercise { background: rgba(22, 163, 74, .32); } .swatch.gap { background: rgba(148, 163, 184, .55); }
        .swatch.band { background: rgba(15, 118, 110, .2); } .swatch.artifact { width: 4px; background: #d97706; border: 0; }
        .swatch.note { border-radius: 50%; background: #7c3aed; border: 0; }
        .swatch.heat-none { background: #e9edf2; } .swatch.heat-0 { background: #fff; border-color: #b6c2d1; }
        .swatch.heat-1 { background: #fecaca; } .swatch.heat-2 { background: #f87171; } .swatch.heat-3 { background: #ef4444; }
        .swatch.heat-4 { background: #b91c1c; } .swatch.heat-5 { background: #7f1d1d; }
        .grid-2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 8px 28px; }
        table { border-collapse: collapse; width: 100%; font-size: 14px; margin-top: 6px; }
        caption { caption-side: bottom; text-align: left; font-size: 12px; color: #64748b; padding-top: 4px; }
        th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #e2e8f0; vertical-align: top; }
        th { font-size: 11.5px; font-weight: 600; color: #64748b; letter-spacing: .05em; text-transform: uppercase; }
        td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        td.time { font-variant-numeric: tabular-nums; white-space: nowrap; }
        tr { break-inside: avoid; }
        .tag { display: inline-block; min-width: 22px; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; text-align: center; }
        .tag.stress { background: #fee2e2; color: #991b1b; } .tag.activity { background: #dbeafe; color: #1e40af; }
        .tag.exercise { background: #dcfce7; color: #166534; } .tag.note { background: #ede9fe; color: #5b21b6; }
        .tag.gap { background: #e2e8f0; color: #334155; } .tag.suggestion { background: #fef3c7; color: #92400e; }
        .muted { color: #64748b; }
        .about { font-size: 13px; color: #475569; border-top: 1px solid #e2e8f0; margin-top: 28px; padding-top: 8px; }
        .about p { margin: 6px 0; }
        footer { max-width: 1180px; margin: 0 auto; padding: 10px 36px 28px; font-size: 12px; color: #64748b; }
        @media print {
          body { background: #fff; font-size: 12px; }
          main { max-width: none; padding: 0; }
          footer { padding: 8px 0 0; }
          h2 { break-after: avoid; }
        }
        """
}
