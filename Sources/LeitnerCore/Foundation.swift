// Foundation in one place: FoundationEssentials starts faster and is enough for the library.
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
