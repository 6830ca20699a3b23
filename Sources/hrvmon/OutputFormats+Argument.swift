import ArgumentParser
import Dashboard
import Presentation

extension OutputFormat: ExpressibleByArgument {}
extension ReportFormat: ExpressibleByArgument {}
extension MonitorFormat: ExpressibleByArgument {}
extension AudiblePacer.Voice: ExpressibleByArgument {}
