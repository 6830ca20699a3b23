/// One inline SVG chart, built in data units layer by layer (first added is drawn first). Shapes
/// carry a CSS class (the page's stylesheet colours them) and an optional `<title>`, which
/// browsers show as a tooltip and screen readers read.
public struct SVGChart {
    public struct Insets {
        public var top = 14.0
        public var right = 16.0
        public var bottom = 30.0
        public var left = 56.0

        public init() {}
    }

    public let width: Double
    public let height: Double
    public let x: LinearScale
    public let y: LinearScale
    private let insets: Insets
    private var layers: [String] = []

    public init(width: Double, height: Double, insets: Insets = Insets(), x: ClosedRange<Double>, y: ClosedRange<Double>) {
        self.width = width
        self.height = height
        self.insets = insets
        self.x = LinearScale(domain: x, start: insets.left, end: width - insets.right)
        self.y = LinearScale(domain: y, start: height - insets.bottom, end: insets.top)
    }

    public var plotTop: Double { insets.top }
    public var plotBottom: Double { height - insets.bottom }
    public var plotLeft: Double { insets.left }
    public var plotRight: Double { width - insets.right }

    /// A shaded span across the plot's height, from `start` to `end` on the x axis, at least
    /// `minimumWidth` pixels wide so that short spans stay visible.
    public mutating func verticalSpan(_ start: Double, _ end: Double, class name: String, title: String?, minimumWidth: Double = 2) {
        let left = max(plotLeft, x(start)), right = min(plotRight, max(x(end), x(start) + minimumWidth))
        guard right > left else { return }
        rectangle(left: left, top: plotTop, right: right, bottom: plotBottom, class: name, title: title)
    }

    /// A strip of `thickness` pixels along the top of the plot from `start` to `end`: marks a span
    /// in print, where light shading may not show.
    public mutating func topStrip(_ start: Double, _ end: Double, thickness: Double = 4, class name: String, title: String?) {
        let left = max(plotLeft, x(start)), right = min(plotRight, max(x(end), x(start) + 2))
        guard right > left else { return }
        rectangle(left: left, top: plotTop, right: right, bottom: plotTop + thickness, class: name, title: title)
    }

    /// A shaded band across the plot's width, from `low` to `high` on the y axis.
    public mutating func horizontalBand(_ low: Double, _ high: Double, class name: String, title: String?) {
        let top = max(plotTop, y(high)), bottom = min(plotBottom, y(low))
        guard bottom > top else { return }
        rectangle(left: plotLeft, top: top, right: plotRight, bottom: bottom, class: name, title: title)
    }

    /// A rectangle in data units (bars, heat-map cells).
    public mutating func box(x x0: Double, _ x1: Double, y y0: Double, _ y1: Double, class name: String, title: String?) {
        rectangle(left: min(x(x0), x(x1)), top: min(y(y0), y(y1)), right: max(x(x0), x(x1)), bottom: max(y(y0), y(y1)), class: name, title: title)
    }

    public mutating func horizontalRule(at value: Double, class name: String, title: String? = nil) {
        let position = y(value)
        guard position >= plotTop, position <= plotBottom else { return }
        add("<line class=\"\(name)\" x1=\"\(n(plotLeft))\" y1=\"\(n(position))\" x2=\"\(n(plotRight))\" y2=\"\(n(position))\"", title: title)
    }

    /// A numbered marker: a rule across the plot with a labelled disc at its top.
    public mutating func marker(at value: Double, label: String, class name: String, title: String?) {
        let position = x(value)
        guard position >= plotLeft - 0.5, position <= plotRight + 0.5 else { return }
        let line = "<line x1=\"\(n(position))\" y1=\"\(n(plotTop))\" x2=\"\(n(position))\" y2=\"\(n(plotBottom))\"/>"
        let disc = "<circle cx=\"\(n(position))\" cy=\"\(n(plotTop + 8))\" r=\"8\"/>"
        let text = "<text x=\"\(n(position))\" y=\"\(n(plotTop + 11.5))\" text-anchor=\"middle\">\(label.htmlEscaped)</text>"
        layers.append("<g class=\"\(name)\">\(titleElement(title))\(line)\(disc)\(text)</g>")
    }

    /// A short tick rising from the bottom of the plot at `value` (marks on the timeline).
    public mutating func rug(at value: Double, height tickHeight: Double = 9, class name: String, title: String?) {
        let position = x(value)
        guard position >= plotLeft, position <= plotRight else { return }
        rectangle(left: position - 1, top: plotBottom - tickHeight, right: position + 1, bottom: plotBottom, class: name, title: title)
    }

    /// Connected lines through (x, y) points; each inner array is drawn separately, so a line
    /// breaks where data is missing.
    public mutating func line(_ segments: [[(x: Double, y: Double)]], class name: String) {
        for segment in segments where !segment.isEmpty {
            let points = segment.map { "\(n(x($0.x))),\(n(y($0.y)))" }.joined(separator: " ")
            if segment.count == 1 {
                add("<circle class=\"\(name)-point\" cx=\"\(n(x(segment[0].x)))\" cy=\"\(n(y(segment[0].y)))\" r=\"2\"", title: nil)
            } else {
                add("<polyline class=\"\(name)\" points=\"\(points)\"", title: nil)
            }
        }
    }

    public mutating func dot(x value: Double, y level: Double, radius: Double = 3.5, class name: String, title: String?) {
        add("<circle class=\"\(name)\" cx=\"\(n(x(value)))\" cy=\"\(n(y(level)))\" r=\"\(n(radius))\"", title: title)
    }

    /// Text at a data position (`anchor`: start, middle or end).
    public mutating func text(_ content: String, x value: Double, y level: Double, dx: Double = 0, dy: Double = 0, anchor: String = "middle", class name: String) {
        layers.append("<text class=\"\(name)\" x=\"\(n(x(value) + dx))\" y=\"\(n(y(level) + dy))\" text-anchor=\"\(anchor)\">\(content.htmlEscaped)</text>")
    }

    /// Grid lines and labels for `ticks` on the x axis, below the plot.
    public mutating func xAxis(_ ticks: [Tick], grid: Bool = true) {
        var parts: [String] = []
        for tick in ticks {
            let position = x(tick.value)
            guard position >= plotLeft - 0.5, position <= plotRight + 0.5 else { continue }
            if grid { parts.append("<line class=\"grid\" x1=\"\(n(position))\" y1=\"\(n(plotTop))\" x2=\"\(n(position))\" y2=\"\(n(plotBottom))\"/>") }
            parts.append("<text x=\"\(n(position))\" y=\"\(n(plotBottom + 17))\" text-anchor=\"middle\">\(tick.label.htmlEscaped)</text>")
        }
        layers.insert("<g class=\"axis\">\(parts.joined())</g>", at: 0)
    }

    /// Grid lines and labels for `ticks` on the y axis, and the axis title written upwards.
    public mutating func yAxis(_ ticks: [Tick], title: String) {
        var parts: [String] = []
        for tick in ticks {
            let position = y(tick.value)
            guard position >= plotTop - 0.5, position <= plotBottom + 0.5 else { continue }
            parts.append("<line class=\"grid\" x1=\"\(n(plotLeft))\" y1=\"\(n(position))\" x2=\"\(n(plotRight))\" y2=\"\(n(position))\"/>")
            parts.append("<text x=\"\(n(plotLeft - 6))\" y=\"\(n(position + 4))\" text-anchor=\"end\">\(tick.label.htmlEscaped)</text>")
        }
        let middle = (plotTop + plotBottom) / 2
        parts.append("<text class=\"axis-title\" transform=\"translate(14 \(n(middle))) rotate(-90)\" text-anchor=\"middle\">\(title.htmlEscaped)</text>")
        layers.insert("<g class=\"axis\">\(parts.joined())</g>", at: 0)
    }

    /// The chart as an `<svg>` element, `id` unique in the page, `title` and `summary` for
    /// assistive technology (and as the tooltip of the chart itself).
    public func rendered(id: String, title: String, summary: String) -> String {
        let frame = "<rect class=\"frame\" x=\"\(n(plotLeft))\" y=\"\(n(plotTop))\" width=\"\(n(plotRight - plotLeft))\" height=\"\(n(plotBottom - plotTop))\"/>"
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 \(n(width)) \(n(height))\" "
            + "width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\">"
            + "<title id=\"\(id)-title\">\(title.htmlEscaped)</title><desc id=\"\(id)-desc\">\(summary.htmlEscaped)</desc>"
            + layers.joined(separator: "\n") + frame + "</svg>"
    }

    private mutating func rectangle(left: Double, top: Double, right: Double, bottom: Double, class name: String, title: String?) {
        add("<rect class=\"\(name)\" x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(right - left))\" height=\"\(n(bottom - top))\"", title: title)
    }

    /// Closes `element` (an open start tag without `>`), with the title inside when there is one.
    private mutating func add(_ element: String, title: String?) {
        guard let title else { return layers.append(element + "/>") }
        let name = element.dropFirst().prefix { $0 != " " }
        layers.append(element + ">" + titleElement(title) + "</\(name)>")
    }

    private func titleElement(_ title: String?) -> String { title.map { "<title>\($0.htmlEscaped)</title>" } ?? "" }

    /// Pixels to a tenth, the precision a screen shows, to keep reports small.
    private func n(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
