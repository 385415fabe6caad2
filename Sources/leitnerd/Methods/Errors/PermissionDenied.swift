/// A call the caller may not make (`Stop()` from a member of `AllowGroup=`): answered
/// `org.varlink.service.PermissionDenied` by `ErrorReplies`.
struct PermissionDenied: Error {}
