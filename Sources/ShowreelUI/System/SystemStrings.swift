import Foundation
import ShowreelGraphics

/// What the system itself says (the permission alert, the edit menu, Notification Center), in the device's language
/// as iOS does: the system follows the device's languages, not an app's `-AppleLanguages`.
/// English, German, Arabic and Japanese, as the sample apps; any other language reads English.
public struct SystemStrings: Sendable, Equatable {
    /// The languages the system speaks.
    public static let languages = ["en", "de", "ar", "ja"]

    /// The first of the device's languages the system speaks (`de-CH` is German), else English.
    public let language: String

    public init(deviceLanguages: [String]) {
        let bases = deviceLanguages.map { String($0.prefix { $0 != "-" && $0 != "_" }).lowercased() }
        language = bases.first { Self.languages.contains($0) } ?? "en"
    }

    public var denyTitle: String { pick(en: "Don’t Allow", de: "Nicht erlauben", ar: "عدم السماح", ja: "許可しない") }
    public var copy: String { pick(en: "Copy", de: "Kopieren", ar: "نسخ", ja: "コピー") }
    public var paste: String { pick(en: "Paste", de: "Einsetzen", ar: "لصق", ja: "ペースト") }
    /// When a notification arrived, as its banner says it.
    public var now: String { pick(en: "now", de: "jetzt", ar: "الآن", ja: "今") }
    public var notificationCenter: String {
        pick(en: "Notification Center", de: "Mitteilungszentrale", ar: "مركز الإشعارات", ja: "通知センター")
    }
    /// The photo picker's title, its Cancel and what it says of an empty library.
    public var photos: String { pick(en: "Photos", de: "Fotos", ar: "الصور", ja: "写真") }
    public var cancel: String { pick(en: "Cancel", de: "Abbrechen", ar: "إلغاء", ja: "キャンセル") }
    public var noPhotos: String {
        pick(en: "No Photos or Videos", de: "Keine Fotos oder Videos", ar: "لا توجد صور أو فيديوهات", ja: "写真またはビデオがありません")
    }
    public var noNotifications: String {
        pick(en: "No Older Notifications", de: "Keine älteren Mitteilungen", ar: "لا توجد إشعارات أقدم", ja: "古い通知はありません")
    }

    /// The button that grants: "Allow While Using App" for the location, "Allow" otherwise.
    public func allowTitle(_ service: PrivacyService) -> String {
        if service == .location || service == .locationAlways {
            return pick(
                en: "Allow While Using App", de: "Beim Verwenden der App erlauben", ar: "السماح أثناء استخدام التطبيق", ja: "Appの使用中は許可")
        }
        return pick(en: "Allow", de: "Erlauben", ar: "سماح", ja: "許可")
    }

    /// The permission alert's title: "Allow “Places” to use your location?" for the location,
    /// "“Places” Would Like to Access Your Photos" and the like for the rest.
    public func permissionTitle(_ service: PrivacyService, appName app: String) -> String {
        let (en, de, ar, ja) = Self.titles(service)
        return pick(en: en, de: de, ar: ar, ja: ja).replacingOccurrences(of: "%@", with: app)
    }

    private static func titles(_ service: PrivacyService) -> (String, String, String, String) {
        switch service {
        case .location, .locationAlways:
            (
                "Allow “%@” to use your location?", "„%@“ erlauben, deinen Standort zu verwenden?",
                "هل تريد السماح لـ \"%@\" باستخدام موقعك؟", "“%@”に位置情報の使用を許可しますか?"
            )
        case .notifications:
            (
                "“%@” Would Like to Send You Notifications", "„%@“ möchte dir Mitteilungen senden", "يرغب \"%@\" في إرسال إشعارات إليك",
                "“%@”は通知を送信します。よろしいですか?"
            )
        case .photosAdd:
            (
                "“%@” Would Like to Add to Your Photos", "„%@“ möchte zu deinen Fotos hinzufügen", "يرغب \"%@\" في الإضافة إلى الصور",
                "“%@”が写真への追加を求めています"
            )
        case .siri:
            ("“%@” Would Like to Use Siri", "„%@“ möchte Siri verwenden", "يرغب \"%@\" في استخدام Siri", "“%@”がSiriの使用を求めています")
        case .calendar: access("Your Calendar", "auf deinen Kalender", "التقويم", "カレンダー")
        case .contacts: access("Your Contacts", "auf deine Kontakte", "جهات الاتصال", "連絡先")
        case .photos: access("Your Photos", "auf deine Fotos", "الصور", "写真")
        case .mediaLibrary: access("Apple Music", "auf Apple Music", "Apple Music", "Apple Music")
        case .microphone: access("the Microphone", "auf das Mikrofon", "الميكروفون", "マイク")
        case .motion:
            access(
                "Your Motion & Fitness Activity", "auf deine Bewegungs- und Fitnessaktivität", "نشاط الحركة واللياقة",
                "モーションとフィットネスのアクティビティ")
        case .reminders: access("Your Reminders", "auf deine Erinnerungen", "التذكيرات", "リマインダー")
        case .camera: access("the Camera", "auf die Kamera", "الكاميرا", "カメラ")
        }
    }

    /// "“%@” Would Like to Access …" in each language.
    private static func access(_ en: String, _ de: String, _ ar: String, _ ja: String) -> (String, String, String, String) {
        ("“%@” Would Like to Access \(en)", "„%@“ möchte \(de) zugreifen", "يرغب \"%@\" في الوصول إلى \(ar)", "“%@”が\(ja)へのアクセスを求めています")
    }

    private func pick(en: String, de: String, ar: String, ja: String) -> String {
        switch language {
        case "de": de
        case "ar": ar
        case "ja": ja
        default: en
        }
    }
}
