import Platform
import Presentation
/// The HTML document a report is: one self-contained file with its stylesheet inline, no
/// scripts, and a content security policy that forbids loading anything, so opening it never
/// touches the network. Written as well-formed XML (every element closed), so any XML tool can
/// read it too.
public enum ReportPage {
    public static func document(title: String, body: String, generated: Double) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/>
        <meta name="generator" content="\(Program.nameAndVersion)"/>
        <title>\(title.htmlEscaped)</title>
        <style>
        \(ReportStyle.css)
        </style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        <footer>Made by \(Program.nameAndVersion) on \(WallClock.day(generated)) at \(WallClock.timeOfDay(generated)) \
        (\(LocalTime.offsetName(at: generated))). Self-contained: no scripts, nothing is loaded from anywhere; \
        the data never left this computer.</footer>
        </body>
        </html>

        """
    }

    /// The page heading: a small kicker line, the title, a subtitle.
    public static func header(kicker: String, title: String, subtitle: String) -> String {
        """
        <header class="report"><p class="kicker">\(kicker.htmlEscaped)</p><h1>\(title.htmlEscaped)</h1>\
        <p class="subtitle">\(subtitle.htmlEscaped)</p></header>
        """
    }

    public struct Figure {
        public var label: String
        public var value: String
        public var detail: String?
    }

    /// Key numbers as a grid of small cards, `columns` (5 or 6) to a row on a wide page.
    public static func figures(_ figures: [Figure], columns: Int) -> String {
        let cards = figures.map { figure in
            "<div class=\"figure\"><div class=\"label\">\(figure.label.htmlEscaped)</div><div class=\"value\">\(figure.value.htmlEscaped)</div>"
                + (figure.detail.map { "<div class=\"detail\">\($0.htmlEscaped)</div>" } ?? "") + "</div>"
        }
        return "<section class=\"figures columns-\(columns)\" aria-label=\"Key figures\">\(cards.joined())</section>"
    }

    /// The closing "How to read this report" section.
    public static func about(_ paragraphs: [String]) -> String {
        "<section class=\"about\"><h2>How to read this report</h2>" + paragraphs.map { "<p>\($0.htmlEscaped)</p>" }.joined() + "</section>"
    }

    public static func warning(_ text: String) -> String { "<p class=\"warning\" role=\"note\">\(text.htmlEscaped)</p>" }

    /// Swatches naming what the colours of the charts above mean; `swatch` is the swatch's classes.
    public static func legend(_ entries: [(swatch: String, text: String)]) -> String {
        let items = entries.map { "<li><span class=\"swatch \($0.swatch)\"></span>\($0.text.htmlEscaped)</li>" }
        return "<ul class=\"legend\">\(items.joined())</ul>"
    }

    /// A table cell: its text escaped, `kind` its classes (`number`, `time`).
    public struct Cell {
        public var html: String
        public var kind: String?

        public init(_ text: String, kind: String? = nil) {
            html = text.htmlEscaped
            self.kind = kind
        }

        /// A coloured tag, e.g. the event type.
        public static func tag(_ text: String, class name: String) -> Cell {
            var cell = Cell("")
            cell.html = "<span class=\"tag \(name)\">\(text.htmlEscaped)</span>"
            return cell
        }
    }

    public static func table(caption: String, headings: [Cell], rows: [[Cell]]) -> String {
        func row(_ cells: [Cell], tag: String) -> String {
            "<tr>" + cells.map { "<\(tag)\($0.kind.map { " class=\"\($0)\"" } ?? "")>\($0.html)</\(tag)>" }.joined() + "</tr>"
        }
        return "<table><caption>\(caption.htmlEscaped)</caption>"
            + "<thead>\(row(headings, tag: "th"))</thead><tbody>\(rows.map { row($0, tag: "td") }.joined(separator: "\n"))</tbody></table>"
    }
}
