/// The countries service's response, as the file-backed "remote" source serves it: the
/// fields of restcountries.eu's v2 API that the app shows.
///
/// It is a Swift string because the package does not ship resources with ShowcaseApps;
/// `RemoteCountriesDataSource(fileURL:)` reads the same document from a file.
enum CountriesPayload {
    static let json = """
    [
      {"name": "Afghanistan", "alpha2Code": "AF", "region": "Asia", "subregion": "Southern Asia", "population": 27657145, "area": 652230.0},
      {"name": "Argentina", "alpha2Code": "AR", "region": "Americas", "subregion": "South America", "population": 43590400, "area": 2780400.0},
      {"name": "Australia", "alpha2Code": "AU", "region": "Oceania", "subregion": "Australia and New Zealand", "population": 24117360, "area": 7692024.0},
      {"name": "Austria", "alpha2Code": "AT", "region": "Europe", "subregion": "Western Europe", "population": 8725931, "area": 83871.0},
      {"name": "Belgium", "alpha2Code": "BE", "region": "Europe", "subregion": "Western Europe", "population": 11319511, "area": 30528.0},
      {"name": "Brazil", "alpha2Code": "BR", "region": "Americas", "subregion": "South America", "population": 206135893, "area": 8515767.0},
      {"name": "Canada", "alpha2Code": "CA", "region": "Americas", "subregion": "Northern America", "population": 36155487, "area": 9984670.0},
      {"name": "Chile", "alpha2Code": "CL", "region": "Americas", "subregion": "South America", "population": 18191900, "area": 756102.0},
      {"name": "China", "alpha2Code": "CN", "region": "Asia", "subregion": "Eastern Asia", "population": 1377422166, "area": 9640011.0},
      {"name": "Denmark", "alpha2Code": "DK", "region": "Europe", "subregion": "Northern Europe", "population": 5717014, "area": 43094.0},
      {"name": "Egypt", "alpha2Code": "EG", "region": "Africa", "subregion": "Northern Africa", "population": 91290000, "area": 1002450.0},
      {"name": "Finland", "alpha2Code": "FI", "region": "Europe", "subregion": "Northern Europe", "population": 5491817, "area": 338424.0},
      {"name": "France", "alpha2Code": "FR", "region": "Europe", "subregion": "Western Europe", "population": 66710000, "area": 640679.0},
      {"name": "Germany", "alpha2Code": "DE", "region": "Europe", "subregion": "Western Europe", "population": 81770900, "area": 357114.0},
      {"name": "Greece", "alpha2Code": "GR", "region": "Europe", "subregion": "Southern Europe", "population": 10858018, "area": 131990.0},
      {"name": "Iceland", "alpha2Code": "IS", "region": "Europe", "subregion": "Northern Europe", "population": 334300, "area": 103000.0},
      {"name": "India", "alpha2Code": "IN", "region": "Asia", "subregion": "Southern Asia", "population": 1295210000, "area": 3287590.0},
      {"name": "Ireland", "alpha2Code": "IE", "region": "Europe", "subregion": "Northern Europe", "population": 6378000, "area": 70273.0},
      {"name": "Italy", "alpha2Code": "IT", "region": "Europe", "subregion": "Southern Europe", "population": 60665551, "area": 301336.0},
      {"name": "Japan", "alpha2Code": "JP", "region": "Asia", "subregion": "Eastern Asia", "population": 126960000, "area": 377930.0},
      {"name": "Kenya", "alpha2Code": "KE", "region": "Africa", "subregion": "Eastern Africa", "population": 47251000, "area": 580367.0},
      {"name": "Mexico", "alpha2Code": "MX", "region": "Americas", "subregion": "Central America", "population": 122273473, "area": 1964375.0},
      {"name": "Netherlands", "alpha2Code": "NL", "region": "Europe", "subregion": "Western Europe", "population": 17019800, "area": 41850.0},
      {"name": "New Zealand", "alpha2Code": "NZ", "region": "Oceania", "subregion": "Australia and New Zealand", "population": 4697854, "area": 270467.0},
      {"name": "Nigeria", "alpha2Code": "NG", "region": "Africa", "subregion": "Western Africa", "population": 186988000, "area": 923768.0},
      {"name": "Norway", "alpha2Code": "NO", "region": "Europe", "subregion": "Northern Europe", "population": 5223256, "area": 323802.0},
      {"name": "Peru", "alpha2Code": "PE", "region": "Americas", "subregion": "South America", "population": 31488700, "area": 1285216.0},
      {"name": "Poland", "alpha2Code": "PL", "region": "Europe", "subregion": "Eastern Europe", "population": 38437239, "area": 312679.0},
      {"name": "Portugal", "alpha2Code": "PT", "region": "Europe", "subregion": "Southern Europe", "population": 10374822, "area": 92090.0},
      {"name": "South Africa", "alpha2Code": "ZA", "region": "Africa", "subregion": "Southern Africa", "population": 55653654, "area": 1221037.0},
      {"name": "Spain", "alpha2Code": "ES", "region": "Europe", "subregion": "Southern Europe", "population": 46438422, "area": 505992.0},
      {"name": "Sweden", "alpha2Code": "SE", "region": "Europe", "subregion": "Northern Europe", "population": 9894888, "area": 450295.0},
      {"name": "Switzerland", "alpha2Code": "CH", "region": "Europe", "subregion": "Western Europe", "population": 8341600, "area": 41284.0},
      {"name": "United Kingdom", "alpha2Code": "GB", "region": "Europe", "subregion": "Northern Europe", "population": 65110000, "area": 242900.0},
      {"name": "United States of America", "alpha2Code": "US", "region": "Americas", "subregion": "Northern America", "population": 323947000, "area": 9629091.0},
      {"name": "Vietnam", "alpha2Code": "VN", "region": "Asia", "subregion": "South-Eastern Asia", "population": 92700000, "area": 331212.0}
    ]
    """
}
