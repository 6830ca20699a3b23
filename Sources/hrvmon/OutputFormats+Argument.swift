import ArgumentParser
import Presentation

extension OutputFormat: ExpressibleByArgument {}
extension ReportFormat: ExpressibleByArgument {}
extension MonitorFormat: ExpressibleByArgument {}
