import Hummingbird

extension AutomationServer {
    func registerGestures(on router: Router<BasicRequestContext>) {}
}
